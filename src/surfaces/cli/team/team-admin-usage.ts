/** The admin actions of `engram team admin`, for its help and its usage errors. */
export const TEAM_ADMIN_USAGE = `engram team admin [--server URL --token T] <action>
  user add NAME [--admin] [--device D] [--password-stdin]   a user and their first token (shown once)
  user list | user remove NAME
  token create --user NAME [--device D] [--scopes read,write,admin] [--expires-days N]
  token list [--user NAME] | token revoke ID
  grant --user NAME --project <git remote> --role reader|writer|admin
  revoke --user NAME --project <git remote>
  audit [--project <git remote>] [--limit N] [--verify]`;
