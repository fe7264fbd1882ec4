/**
 * Issue 24 §3: the FoxyProxy and SwitchyOmega files checked against what the extensions themselves read.
 * FoxyProxy: its own JSON schema, src/content/schema.json of foxyproxy/browser-extension at
 * c32cd9ff2a6138fcaa84908165a1f259001549f7, copied verbatim to test/support/exports/foxyproxy-schema.json and
 * validated with ajv (which comes with conf, a dependency); the proxy items also carry exactly the fields of the
 * proxy template in src/content/import-list.js (parseSimple). SwitchyOmega: it has no schema file, so its shapes
 * are written here from FelisCatus/SwitchyOmega at 19f9d73f20125b6164fb95d17cd4cc6659df147c:
 * omega-target/src/default_options.coffee (the `-` options, schemaVersion 2, which options.coffee `upgrade`
 * requires), omega-pac/src/profiles.coffee (FixedProfile's fallbackProxy and bypassList, SwitchProfile's rules and
 * defaultProfileName, the schemes http/https/socks4/socks5 of pacProtocols) and
 * omega-target-chromium-extension/src/module/proxy/proxy_auth.coffee (auth.fallbackProxy {username, password}).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formats } from '../../../../main/services/exports/formats';
import { HOSTILE_NAME, exportOptions, httpProxy, socksProxy } from '../../../support/export-proxies';

const routing = { hosts: ['*.example.com', 'api.test'], fallback: 'direct' as const };
const proxies = [
  httpProxy({ credentials: { username: 'alice', password: 'Zx9_-s3cret' } }),
  socksProxy({ host: '10.0.0.6' }),
  httpProxy({ name: HOSTILE_NAME, vmid: 103 }),
];

describe('FoxyProxy', () => {
  const schema = JSON.parse(readFileSync(new URL('../../../support/exports/foxyproxy-schema.json', import.meta.url), 'utf8')) as object;
  // The schema is draft-04 style (`"id": "include"`, `"$ref": "include"`); ajv reads that id as `$id`.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace('"id":"include"', '"$id":"include"')) as object);

  it('is valid under FoxyProxy’s own schema', () => {
    const data = JSON.parse(formats.foxyproxy.render(proxies, exportOptions({ routing })).text) as unknown;
    expect(validate(data), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('has each proxy as FoxyProxy’s template has it, the routing as wildcard patterns', () => {
    const data = JSON.parse(formats.foxyproxy.render(proxies, exportOptions({ routing })).text) as {
      mode: string;
      data: Record<string, unknown>[];
    };
    const template = [
      'active',
      'title',
      'type',
      'hostname',
      'port',
      'username',
      'password',
      'cc',
      'city',
      'color',
      'pac',
      'pacString',
      'proxyDNS',
      'include',
      'exclude',
      'tabProxy',
    ];
    expect(data.mode).toBe('disable');
    for (const item of data.data) expect(Object.keys(item).sort()).toEqual([...template].sort());
    expect(data.data[0]).toMatchObject({
      title: 'web-1',
      type: 'http',
      hostname: '10.0.0.5',
      port: '3128',
      username: 'alice',
      password: 'Zx9_-s3cret',
    });
    expect(data.data[1]).toMatchObject({ type: 'socks5', hostname: '10.0.0.6', port: '1080', username: '', password: '', proxyDNS: true });
    expect(data.data[0]!.include).toEqual([
      { type: 'wildcard', title: '*.example.com', pattern: '*.example.com', active: true },
      { type: 'wildcard', title: 'api.test', pattern: 'api.test', active: true },
    ]);
    expect(data.data[2]!.title).toBe(HOSTILE_NAME);
  });

  it('is refused by the schema when a field has the wrong type (the check bites)', () => {
    const data = JSON.parse(formats.foxyproxy.render(proxies, exportOptions({ routing })).text) as { data: Record<string, unknown>[] };
    data.data[0]!.port = 3128;
    expect(validate(data)).toBe(false);
  });
});

const Condition = z.object({ conditionType: z.literal('BypassCondition'), pattern: z.string().min(1) }).strict();
const FixedProfile = z
  .object({
    name: z.string().min(1),
    profileType: z.literal('FixedProfile'),
    color: z.string().regex(/^#[0-9a-f]{6}$/i),
    fallbackProxy: z
      .object({ scheme: z.enum(['http', 'https', 'socks4', 'socks5']), host: z.string().min(1), port: z.number().int().min(1).max(65535) })
      .strict(),
    bypassList: z.array(Condition),
    auth: z
      .object({ fallbackProxy: z.object({ username: z.string(), password: z.string() }).strict() })
      .strict()
      .optional(),
  })
  .strict();
const SwitchProfile = z
  .object({
    name: z.string().min(1),
    profileType: z.literal('SwitchProfile'),
    color: z.string(),
    defaultProfileName: z.string().min(1),
    rules: z.array(
      z
        .object({
          condition: z.object({ conditionType: z.literal('HostWildcardCondition'), pattern: z.string().min(1) }).strict(),
          profileName: z.string().min(1),
        })
        .strict(),
    ),
  })
  .strict();
const Options = z.looseObject({
  schemaVersion: z.literal(2),
  '-enableQuickSwitch': z.boolean(),
  '-refreshOnProfileChange': z.boolean(),
  '-startupProfileName': z.string(),
  '-quickSwitchProfiles': z.array(z.string()),
  '-revertProxyChanges': z.boolean(),
  '-confirmDeletion': z.boolean(),
  '-showInspectMenu': z.boolean(),
  '-addConditionsToBottom': z.boolean(),
  '-showExternalProfile': z.boolean(),
  '-downloadInterval': z.number(),
});

describe('SwitchyOmega', () => {
  const backup = JSON.parse(formats.switchyomega.render(proxies, exportOptions({ routing })).text) as Record<string, unknown>;

  it('is an options backup SwitchyOmega restores: schemaVersion 2, its options, +name profiles', () => {
    expect(Options.safeParse(backup).error).toBeUndefined();
    for (const [key, value] of Object.entries(backup)) {
      if (!key.startsWith('+')) continue;
      const profile = z.union([FixedProfile, SwitchProfile]).parse(value);
      // omega-pac's nameAsKey: the key is '+' and the profile's name.
      expect(key).toBe(`+${profile.name}`);
    }
  });

  it('has a FixedProfile per proxy (credentials in auth) and a switch profile sending the patterns to the first', () => {
    expect(FixedProfile.parse(backup['+web-1'])).toMatchObject({
      fallbackProxy: { scheme: 'http', host: '10.0.0.5', port: 3128 },
      auth: { fallbackProxy: { username: 'alice', password: 'Zx9_-s3cret' } },
    });
    expect(FixedProfile.parse(backup['+socks-1']).fallbackProxy).toEqual({ scheme: 'socks5', host: '10.0.0.6', port: 1080 });
    expect(backup[`+${HOSTILE_NAME}`]).toBeDefined();
    expect(SwitchProfile.parse(backup['+egress desk'])).toMatchObject({
      defaultProfileName: 'direct',
      rules: [
        { condition: { pattern: '*.example.com' }, profileName: 'web-1' },
        { condition: { pattern: 'api.test' }, profileName: 'web-1' },
      ],
    });
  });

  it('gives two VMs of one name, and one named like a built-in profile, names of their own', () => {
    const out = JSON.parse(
      formats.switchyomega.render(
        [httpProxy(), httpProxy({ vmid: 201, clusterName: 'home' }), httpProxy({ name: 'direct', vmid: 7 })],
        exportOptions(),
      ).text,
    ) as Record<string, unknown>;
    expect(Object.keys(out).filter((k) => k.startsWith('+'))).toEqual(['+web-1', '+web-1 (home 201)', '+direct (lab 7)', '+egress desk']);
    // No pattern: every host through the first proxy.
    expect(SwitchProfile.parse(out['+egress desk']).defaultProfileName).toBe('web-1');
  });
});
