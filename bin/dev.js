#!/usr/bin/env -S node --import tsx --no-warnings=ExperimentalWarning
import {execute} from '../src/cli/oclif.js'

await execute({development: true, dir: import.meta.url})
