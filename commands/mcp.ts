import {BaseCommand} from '../src/cli/base-command.js'

export default class Mcp extends BaseCommand {
  static summary = 'Serve the jobs, the ranking and the tracker to an AI assistant over MCP (stdio)'
  static description =
    'A Model Context Protocol server on stdin and stdout, started by an assistant from its configuration ' +
    '("command": "jobagent", "args": ["mcp"]); it opens no port. Tools list and search jobs, show and change ' +
    'applications, like and dismiss jobs, list follow-ups and interviews and give the statistics; resources give the ' +
    'profile, the latest digest, and jobs and applications by URI. Logs go to stderr. It stops when the client ' +
    'closes stdin. See docs/MCP.md.'
  static examples = ['<%= config.bin %> mcp', '$ npx @modelcontextprotocol/inspector jobagent mcp']

  async run() {
    await this.parse(Mcp)
    // Loaded here so other commands never load the MCP SDK.
    const {serveMcp} = await import('../src/mcp/server.js')
    await serveMcp(this.context, {stdin: this.io.stdin, stdout: this.io.stdout})
  }
}
