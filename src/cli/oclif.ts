/**
 * The one place jobagent imports @oclif/core from (bin/run.js, the commands, the help class and the hooks). The
 * build replaces the compiled file with a single-file bundle of oclif and its dependencies
 * (scripts/bundle-modules.js): every command starts by loading oclif, and Node reads its ~90 files one by one.
 */

export type {Hook, Interfaces} from '@oclif/core'
export {Args, Command, execute, Flags, Help, handle, loadHelpClass} from '@oclif/core'
