/** The MCP server's tools, as `engram install` names them (the MCP test checks the server offers exactly these). */
export const MCP_TOOL_NAMES = [
  'search',
  'timeline',
  'get_observations',
  'get_session_summaries',
  'history',
  'related',
  'neighbourhood',
  'remember',
  'edit',
  'pin',
  'invalidate',
  'forget',
  'status',
  'metrics',
] as const;
