import { describe, expect, it } from 'vitest';
import { createRegistry, definePlugin, RegistryError, type PluginDefinition } from './plugin';

const page = () => Promise.resolve({ default: () => null });
const plugin = (over: Partial<PluginDefinition>): PluginDefinition =>
  definePlugin({ id: 'a', messages: { zh_CN: {}, en_US: {} }, ...over });

describe('plugin registry', () => {
  it('indexes sections, routes and merged messages per locale', async () => {
    const r = createRegistry([
      plugin({
        id: 'a',
        settingsSections: [{ key: 'profile', messageId: 'a.t', load: page }],
        messages: { zh_CN: { 'a.t': '甲' }, en_US: { 'a.t': 'A' } },
      }),
      plugin({
        id: 'b',
        routes: [{ path: '/users/login', load: page }],
        messages: { zh_CN: { 'b.t': '乙' }, en_US: { 'b.t': 'B' } },
      }),
    ]);
    expect(r.section('profile')?.messageId).toBe('a.t');
    expect(r.section('nope')).toBeUndefined();
    expect(r.routes.map((x) => x.path)).toEqual(['/users/login']);
    await expect(r.loadMessages('en_US')).resolves.toEqual({ 'a.t': 'A', 'b.t': 'B' });
    await expect(r.loadMessages('zh_CN')).resolves.toEqual({ 'a.t': '甲', 'b.t': '乙' });
  });

  it('loads lazy catalogues once per locale and retries after a failure', async () => {
    let calls = 0;
    let fail = true;
    const r = createRegistry([
      plugin({
        messages: {
          zh_CN: { 'a.t': '甲' },
          en_US: async () => {
            calls++;
            if (fail) throw new Error('offline');
            return { default: { 'a.t': 'A' } };
          },
        },
      }),
    ]);
    await expect(r.loadMessages('en_US')).rejects.toThrow('offline');
    fail = false;
    await expect(r.loadMessages('en_US')).resolves.toEqual({ 'a.t': 'A' });
    await r.loadMessages('en_US');
    expect(calls).toBe(2);
  });

  it('rejects duplicate ids, section keys and routes', () => {
    expect(() => createRegistry([plugin({ id: 'x' }), plugin({ id: 'x' })])).toThrow(RegistryError);
    const sec = { key: 'ssh', messageId: 'm', load: page };
    expect(() =>
      createRegistry([plugin({ id: 'x', settingsSections: [sec] }), plugin({ id: 'y', settingsSections: [sec] })]),
    ).toThrow('duplicate settings section key "ssh"');
    const route = { path: '/users/x', load: page };
    expect(() => createRegistry([plugin({ id: 'x', routes: [route] }), plugin({ id: 'y', routes: [route] })])).toThrow(
      'duplicate route "/users/x"',
    );
  });

  it('collects every plugin store loader by name and rejects a name claimed twice', () => {
    const load = () => Promise.resolve({ default: () => ({}) as never });
    const r = createRegistry([plugin({ id: 'x', stores: { accessTokens: load } }), plugin({ id: 'y' })]);
    expect(r.stores.accessTokens).toBe(load);
    expect(() =>
      createRegistry([plugin({ id: 'x', stores: { sshKeys: load } }), plugin({ id: 'y', stores: { sshKeys: load } })]),
    ).toThrow('duplicate store "sshKeys" (plugin "y")');
  });
});
