import {describe, expect, it} from 'vitest'
import {DESCRIPTION_LIMIT, htmlToText, plainToText} from '../../../src/core/jobs/description.js'
import {linearBound, timeGrowth} from '../../helpers/linear-time.js'

describe('htmlToText', () => {
  it('keeps paragraphs apart, list items on their own lines and decodes entities', () => {
    const html =
      '<h2>About us</h2><p>We build <strong>tools</strong> for teams &amp; their&nbsp;customers.</p>' +
      '<ul><li>Write TypeScript</li><li>Run <a href="https://x.example">Postgres</a></li></ul><p>Apply&hellip;</p>'
    expect(htmlToText(html)).toBe(
      'About us\n\nWe build tools for teams & their customers.\n\n- Write TypeScript\n- Run Postgres\n\nApply…',
    )
  })

  it('keeps a list item on its line when its text is a paragraph', () => {
    const html = '<ul>\n<li>\n<p>Recruit a team</p>\n</li>\n<li><div><p>Run the roadmap</p></div></li></ul><p>After</p>'
    expect(htmlToText(html)).toBe('- Recruit a team\n\n- Run the roadmap\n\nAfter')
  })

  it('ends lines at <br> and table rows, and separates cells', () => {
    expect(htmlToText('Line one<br>Line two<br/>Line three')).toBe('Line one\nLine two\nLine three')
    expect(htmlToText('<table><tr><td>Salary</td><td>90k</td></tr><tr><td>Type</td><td>full</td></tr></table>')).toBe(
      'Salary 90k\nType full',
    )
  })

  it('drops script, style and other content no reader sees', () => {
    const html = '<style>p{color:red}</style><p>Visible</p><script>alert("x")</script><noscript>n</noscript>'
    expect(htmlToText(html)).toBe('Visible')
  })

  it('folds white space of the source and removes control and bidi characters', () => {
    expect(htmlToText('<p>  a \n\t b  </p>\n\n\n<p>c\u0007\u202e</p>')).toBe('a b\n\nc')
  })

  it('reads half a surrogate pair as the replacement character, as HTML5 does', () => {
    expect(htmlToText('<p>a &#xD800; b</p>')).toBe('a \uFFFD b')
    expect(plainToText('a \uD800 b')).toBe('a \uFFFD b')
  })

  it('reads text without tags as the same text', () => {
    expect(htmlToText('Just text &lt;not a tag&gt;')).toBe('Just text <not a tag>')
  })

  it('reads HTML escaped once or more again until no markup or entity is left, keeping its breaks', () => {
    const once = '&lt;div class=&quot;content-intro&quot;&gt;&lt;p&gt;Tom &amp;amp; Jerry&lt;/p&gt;&lt;/div&gt;'
    expect(htmlToText(once)).toBe('Tom & Jerry')
    expect(htmlToText(once.replaceAll('&', '&amp;'))).toBe('Tom & Jerry')
    expect(htmlToText('<p>Intro</p><p>&lt;ul&gt;&lt;li&gt;One&lt;/li&gt;&lt;li&gt;Two&lt;/li&gt;&lt;/ul&gt;</p>')).toBe(
      'Intro\n\n- One\n- Two',
    )
    // A tag named in prose is no markup.
    expect(htmlToText('<p>Draw on a &lt;canvas&gt; with WebGL</p>')).toBe('Draw on a <canvas> with WebGL')
  })

  it('survives unclosed and stray tags', () => {
    expect(htmlToText('<div><p>Open paragraph<li>item</div></b></i>tail')).toBe('Open paragraph\n- item\n\ntail')
  })

  it('is null for no text, and cuts at the limit', () => {
    expect(htmlToText('')).toBeNull()
    expect(htmlToText('<p> </p><br>')).toBeNull()
    expect(htmlToText(42)).toBeNull()
    const long = htmlToText(`<p>${'word '.repeat(10_000)}</p>`)
    expect(long).toHaveLength(DESCRIPTION_LIMIT)
  })

  it('never cuts between the two halves of a surrogate pair', () => {
    const text = htmlToText(`${'a'.repeat(DESCRIPTION_LIMIT - 1)}😀 tail`)
    expect(text).toHaveLength(DESCRIPTION_LIMIT - 1)
  })
})

describe('htmlToText on deeply nested markup', () => {
  const nested = (open: string, close: string, depth: number) => `${open.repeat(depth)}${close.repeat(depth)}`

  it.each([
    ['nested <b>', (depth: number) => `${'<b>'.repeat(depth)}text`],
    ['nested <b> with text in each', (depth: number) => '<b>x'.repeat(depth)],
    ['nested <div>, closed', (depth: number) => nested('<div>', '</div>', depth)],
    ['nested <span> and stray closing tags', (depth: number) => `${'<span>'.repeat(depth)}${'</i>'.repeat(depth)}`],
    ['nested <li>', (depth: number) => '<ul><li>x'.repeat(depth)],
  ])(
    'reads %s in linear time',
    (_name, html) => {
      // 8 times the nesting (up to 1 MB) takes about 8 times as long; before, 64 times (15 s at 640,000 characters).
      const small = html(20_000)
      const large = html(160_000)
      expect(timeGrowth(htmlToText, small, large)).toBeLessThan(linearBound(8))
    },
    120_000,
  )

  it('keeps every word of markup nested deeper than it tracks, in order', () => {
    const html = `<p>before</p>${'<b>'.repeat(1_000)}deep${'</b>'.repeat(1_000)}<p>after</p>`
    expect(htmlToText(html)).toBe('before\n\ndeep\n\nafter')
    const words = Array.from({length: 3_000}, (_, index) => `<span>w${index} `).join('')
    expect(htmlToText(words)?.split(' ')).toEqual(Array.from({length: 3_000}, (_, index) => `w${index}`))
  })

  it('reads nesting within what it tracks as before', () => {
    const html = `${'<div>'.repeat(200)}<ul><li>item</li></ul>${'</div>'.repeat(200)}<script>${'<b>'.repeat(10)}x</script>end`
    expect(htmlToText(html)).toBe('- item\n\nend')
  })
})

describe('htmlToText on text without block elements', () => {
  it("keeps the text's own line breaks, as RemoteOK's typed descriptions have them, beside a <br>", () => {
    const typed = 'Who You Are\n• You live in the EMEA Region.\n• 4+ years<br/>of <b>security</b> work.\n\nBenefits'
    expect(htmlToText(typed)).toBe(
      'Who You Are\n• You live in the EMEA Region.\n• 4+ years\nof security work.\n\nBenefits',
    )
  })

  it('folds line breaks inside HTML laid out by its elements, as a browser does', () => {
    expect(htmlToText('<p>One\nsentence</p><ul><li>an\nitem</li></ul>')).toBe('One sentence\n\n- an item')
  })
})

describe('plainToText', () => {
  it('keeps the line breaks of plain text and tidies the rest', () => {
    expect(plainToText('First line\r\nSecond   line\n\n\n\nThird\n')).toBe('First line\nSecond line\n\nThird')
    expect(plainToText('<b>not parsed</b>')).toBe('<b>not parsed</b>')
    expect(plainToText('   ')).toBeNull()
    expect(plainToText(undefined)).toBeNull()
  })
})
