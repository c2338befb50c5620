export {
  createHttpClient,
  type HttpAnswer,
  HttpClient,
  looksLikeHtml,
  type RequestOptions,
} from './client.js'
export {formatSeconds, HttpError} from './http-error.js'
