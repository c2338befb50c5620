#!/usr/bin/env node
import module from 'node:module'
import {execute} from '@oclif/core'

// Node 22.1 and later can keep compiled code between runs (in the OS temp directory): a short command such as
// `jobagent status` then starts faster. Older Node versions have no such cache; nothing changes there.
module.enableCompileCache?.()

await execute({dir: import.meta.url})
