import {Children, type ComponentProps} from 'react'
import {escapeControls} from '../../core/control-characters.js'
import {Text as InkText} from '../ink.js'

/**
 * Ink's Text with its strings shown escaped (`\x1b`, `\u202e`): the dashboard draws titles, companies, notes,
 * URLs and error messages from boards, imports and the API, and none of them may drive the terminal or reorder
 * the screen. Every component draws text through this one, so no string reaches Ink unescaped.
 */
export function Text({children, ...props}: ComponentProps<typeof InkText>) {
  return (
    <InkText {...props}>
      {Children.map(children, (child) => (typeof child === 'string' ? escapeControls(child) : child))}
    </InkText>
  )
}
