/**
 * The one place the dashboard imports Ink from. The build replaces the compiled file with a single-file bundle of
 * Ink and its dependencies (scripts/bundle-modules.js): importing Ink's ~500 separate files took most of the time to
 * the first frame, the bundle loads in a fraction of it. React stays a shared external.
 */
export * from 'ink'
