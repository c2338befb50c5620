import {createRoute, OpenAPIHono, z} from '@hono/zod-openapi'
import type {HttpServices} from '../../app/http-services.js'
import {validationHook} from '../errors.js'
import {ContactRequestSchema, ContactSchema, errorResponses, UrlParamSchema} from '../schemas.js'

const json = (schema: z.ZodType, description: string) => ({description, content: {'application/json': {schema}}})

const addContact = createRoute({
  method: 'post',
  path: '/applications/{url}/contacts',
  tags: ['applications'],
  summary: 'Add a contact to an application',
  description:
    'A name, and optionally a role, an `email` or a `link` (or `reach`, either of them; one at most) and notes. ' +
    'The history records it (`change: "contact"`).',
  request: {
    params: UrlParamSchema,
    body: {required: true, content: {'application/json': {schema: ContactRequestSchema}}},
  },
  responses: {201: json(ContactSchema, 'The contact added'), ...errorResponses(401, 404, 413, 415, 422)},
})

const removeContact = createRoute({
  method: 'delete',
  path: '/applications/{url}/contacts/{contact_id}',
  tags: ['applications'],
  summary: 'Remove a contact from an application',
  description: 'The history keeps who it was (`change: "contact"`, details `removed`).',
  request: {
    params: UrlParamSchema.extend({
      contact_id: z.coerce
        .number({error: 'contact_id must be a whole number'})
        .int({error: 'contact_id must be a whole number'})
        .min(1, {error: 'contact_id must be a whole number'})
        .openapi({param: {name: 'contact_id', in: 'path'}, example: 3}),
    }),
  },
  responses: {200: json(ContactSchema, 'The contact removed'), ...errorResponses(401, 404, 422)},
})

/** The contacts of an application; GET /applications/{url} lists them with the record. */
export function contactsRoutes(services: HttpServices) {
  return new OpenAPIHono({defaultHook: validationHook})
    .openapi(addContact, async (c) => {
      return c.json(await services.contacts.add(c.req.valid('param').url, c.req.valid('json')), 201)
    })
    .openapi(removeContact, async (c) => {
      const {url, contact_id: contactId} = c.req.valid('param')
      return c.json(await services.contacts.remove(url, contactId), 200)
    })
}
