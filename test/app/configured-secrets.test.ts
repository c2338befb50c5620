import {describe, expect, it} from 'vitest'
import {loadConfig} from '../../src/app/config.js'
import {configuredSecrets, withoutSecrets, withSecretsOf} from '../../src/app/configured-secrets.js'
import {tempDir} from '../helpers/cli.js'

describe('the secrets of the configuration in force', () => {
  const home = tempDir('jobagent-configured-secrets-')
  const env = {
    JOBAGENT_HOME: home.path,
    JOBAGENT_API_TOKEN: 'api-token-0123456789',
    JOBAGENT_SHIPMENT_METADATA_URL: 'postgres://app:pg-pass-4711@db.internal/shipments',
  }
  const {config} = loadConfig({
    env,
    overrides: {
      sources: [
        {type: 'adzuna', country: 'gb', app_id: 'adz-id-77', app_key: 'adz-key-88'},
        {type: 'rss', name: 'feed', url: 'https://feeds.example.org/jobs?token=feed-tok-99&q=node'},
        {type: 'greenhouse', boards: ['acme']},
      ],
      notify: {
        urls: [
          'ntfys://tk_ntfytoken123@ntfy.example.org/jobs',
          'json://bob:hook-pass-55@hooks.example.org/in/tok3n-in-path-66?key=qk-42x',
        ],
      },
      run: {healthcheck_url: 'https://hc-ping.com/5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7'},
    },
  })
  const mask = configuredSecrets(config, env)

  it.each([
    'adz-id-77',
    'adz-key-88',
    'feed-tok-99',
    'tk_ntfytoken123',
    'hook-pass-55',
    Buffer.from('bob:hook-pass-55').toString('base64'),
    'tok3n-in-path-66',
    'qk-42x',
    '5f4c1b0e-97a4-4b7e-9d0c-2c3f8a61e2b7',
    'api-token-0123456789',
    'pg-pass-4711',
  ])('hides %s in any text', (secret) => {
    expect(mask.mask(`the server said: ${secret}.`)).toBe('the server said: ***.')
  })

  it('leaves the words and names around them alone', () => {
    const text = 'greenhouse:acme searched node jobs on feeds.example.org; bob got HTTP 401 from hooks.example.org/in'
    expect(mask.mask(text)).toBe(text)
    home.cleanup()
  })
})

describe('the settings a backup holds', () => {
  const settings = {
    notify: {urls: ['https://hooks.slack.com/services/T0/B0/secret-a'], max_items: 5},
    run: {healthcheck_url: 'https://hc-ping.com/uuid-secret'},
    sources: [
      {type: 'remoteok'},
      {type: 'adzuna', app_id: 'id-secret', app_key: 'key-secret', url: 'https://api.adzuna.com'},
    ],
    shipments: {metadata: {url: 'postgres://app:pg-secret@db/shipments'}, telemetry: {url: 'sqlite:///tmp/x.db'}},
    search: {tags: ['typescript']},
  }

  it('leaves out every secret setting and names each, keeping URLs without credentials', () => {
    const {settings: kept, leftOut} = withoutSecrets(settings)
    expect(leftOut).toEqual([
      'notify.urls',
      'run.healthcheck_url',
      'sources[1].app_id',
      'sources[1].app_key',
      'shipments.metadata.url',
    ])
    expect(JSON.stringify(kept)).not.toMatch(/secret/)
    expect(kept).toEqual({
      notify: {max_items: 5},
      run: {},
      sources: [{type: 'remoteok'}, {type: 'adzuna', url: 'https://api.adzuna.com'}],
      shipments: {metadata: {}, telemetry: {url: 'sqlite:///tmp/x.db'}},
      search: {tags: ['typescript']},
    })
    // The settings given are left as they were.
    expect(settings.notify.urls).toHaveLength(1)
  })

  it('puts back the secrets of another tree at their places, making the objects on the way', () => {
    const restored = withSecretsOf({search: {tags: ['go']}, sources: [{type: 'remoteok'}]}, settings)
    expect(restored).toEqual({
      search: {tags: ['go']},
      sources: [{type: 'remoteok'}],
      notify: {urls: settings.notify.urls},
      run: {healthcheck_url: settings.run.healthcheck_url},
      shipments: {metadata: {url: settings.shipments.metadata.url}},
    })
  })
})
