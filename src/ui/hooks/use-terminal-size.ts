import {useEffect, useState} from 'react'
import {useStdout} from '../ink.js'
import type {Size} from '../layout.js'

/** The terminal's size, followed on every resize. Streams that are not terminals are taken as 80x24. */
export function useTerminalSize(): Size {
  const {stdout} = useStdout()
  const [size, setSize] = useState<Size>(() => ({columns: stdout.columns || 80, rows: stdout.rows || 24}))
  useEffect(() => {
    const onResize = () => setSize({columns: stdout.columns || 80, rows: stdout.rows || 24})
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout])
  return size
}
