/**
 * The one place jobagent imports @oclif/core from (bin/run.js, the commands, the help class and the hooks). The
 * build replaces the compiled file with a single-file bundle of oclif and its dependencies
 * (scripts/bundle-modules.js): every command starts by loading oclif, and Node reads its ~90 files one by one.
 * The names come from oclif's own entry points for each part, not its index, which also loads the parts jobagent
 * never calls (its Node version check with semver among them).
 */

export type {Hook, Interfaces} from '@oclif/core'
export * as Args from '@oclif/core/args'
export {Command} from '@oclif/core/command'
export {execute} from '@oclif/core/execute'
export * as Flags from '@oclif/core/flags'
export {Help, loadHelpClass} from '@oclif/core/help'
export {settings} from '@oclif/core/settings'
