export {
  createHttpClient,
  type HttpAnswer,
  HttpClient,
  looksLikeHtml,
  type RequestOptions,
} from './client.js'
export {HttpError} from './http-error.js'
