// Copies non-TypeScript assets (the web page) into dist so the installed package serves them without a CDN.
import {cpSync, existsSync} from 'node:fs'

if (existsSync('src/web')) cpSync('src/web', 'dist/src/web', {recursive: true})
