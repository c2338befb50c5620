export {
  createHttpClient,
  type HttpAnswer,
  HttpClient,
  type HttpClientOptions,
  looksLikeHtml,
  MAX_REDIRECTS,
  type RequestOptions,
} from './client.js'
export {HttpError, parseRetryAfter} from './http-error.js'
