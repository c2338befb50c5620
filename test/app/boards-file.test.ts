import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {appendToBoardsFile, heldBoardsFile, readBoardsFile} from '../../src/app/boards-file.js'
import {tempDir} from '../helpers/cli.js'

let dir: ReturnType<typeof tempDir>
let configFile: string

beforeEach(() => {
  dir = tempDir('jobagent-boards-file-')
  configFile = join(dir.path, 'config.json')
})
afterEach(() => dir.cleanup())

describe('appending to a file of boards', () => {
  it('creates the file beside the config, then adds after what it holds, comments and all', () => {
    const held = () => heldBoardsFile('followed-greenhouse.txt', 'greenhouse', configFile)
    expect(held()).toMatchObject({text: null, boards: []})
    appendToBoardsFile(held(), [{slug: 'gitlab', company: 'GitLab'}])
    const path = join(dir.path, 'followed-greenhouse.txt')
    writeFileSync(path, `${readFileSync(path, 'utf8')}# mine\nstripe`)
    appendToBoardsFile(held(), [
      {slug: 'notion', company: 'Notion\nLabs\u001b[31m'},
      {slug: 'acme', company: '# not a comment'},
      {slug: 'plain'},
    ])
    const text = readFileSync(path, 'utf8')
    expect(text.split('\n').slice(1)).toEqual([
      'gitlab GitLab',
      '# mine',
      'stripe',
      // A company name is one line, without control characters, never read as a comment.
      'notion Notion Labs [31m',
      'acme not a comment',
      'plain',
      '',
    ])
    const entry = {type: 'greenhouse' as const, boards_file: 'followed-greenhouse.txt'}
    expect(readBoardsFile(entry, configFile).map((board) => board.slug)).toEqual([
      'gitlab',
      'stripe',
      'notion',
      'acme',
      'plain',
    ])
    expect(held().boards.map((board) => board.slug)).toEqual(['gitlab', 'stripe', 'notion', 'acme', 'plain'])
  })

  it('leaves a file as it is rather than let it name more than 2,000 boards', () => {
    const many = Array.from({length: 1999}, (_, n) => ({slug: `board-${n}`}))
    const held = () => heldBoardsFile('followed-lever.txt', 'lever', configFile)
    appendToBoardsFile(held(), many)
    const before = readFileSync(join(dir.path, 'followed-lever.txt'), 'utf8')
    expect(() => appendToBoardsFile(held(), [{slug: 'a'}, {slug: 'b'}])).toThrow(/would name more than 2000 boards/)
    expect(readFileSync(join(dir.path, 'followed-lever.txt'), 'utf8')).toBe(before)
  })
})
