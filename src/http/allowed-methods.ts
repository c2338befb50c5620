import {TrieRouter} from 'hono/router/trie-router'

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * The methods the routes of `app` answer at a path (`Allow` of a 405), from the app's own route table so every
 * route is covered. Catch-all routes (`/*`: the web page's files) pass paths that are no file on, so they say
 * nothing about a path. The router is built on first use, once every route is mounted.
 */
export function allowedMethods(app: {routes: readonly {method: string; path: string}[]}): (path: string) => string[] {
  let router: TrieRouter<string> | undefined
  return (path) => {
    if (router === undefined) {
      router = new TrieRouter<string>()
      for (const route of app.routes) {
        if (route.method !== 'ALL' && !route.path.includes('*')) router.add('ALL', route.path, route.method)
      }
    }
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method))
    // Hono answers HEAD with the GET route.
    if (methods.has('GET')) methods.add('HEAD')
    return METHOD_ORDER.filter((method) => methods.has(method))
  }
}
