/** The MCP server's tools, as `engram install` names them (the MCP test checks the server offers exactly these). */
export const MCP_TOOL_NAMES = [
  'search',
  'timeline',
  'get_observations',
  'get_session_summaries',
  'related',
  'neighbourhood',
  'remember',
  'invalidate',
  'forget',
  'status',
] as const;
