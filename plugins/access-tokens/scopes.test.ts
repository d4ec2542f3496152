import { describe, expect, it } from 'vitest';
import type { TokenScope, TokenScopeLeaf } from './contract';
import { areaState, droppedGrants, fromGrants, setPermission, toGrants, toggleScope } from './scopes';

const leaf = (key: string, op: 'read' | 'read_write' = 'read_write'): TokenScopeLeaf => ({
  scope_key: key,
  scope_operate: op,
  scope_desc: key,
  sub_scopes: [],
});
const code: TokenScope = {
  scope_key: 'codeup',
  scope_operate: 'read_write',
  scope_desc: 'Code',
  sub_scopes: [leaf('codeup:repository'), leaf('codeup:branch'), leaf('codeup:commit', 'read')],
};
const base: TokenScope = {
  scope_key: 'base',
  scope_operate: 'read',
  scope_desc: 'User',
  sub_scopes: [leaf('base:user', 'read')],
};
const tree = [code, base];

describe('scope tree rules', () => {
  it('selecting a parent selects all children; deselecting removes parent and children', () => {
    let s = toggleScope(code, {}, true);
    expect(s).toEqual({ 'codeup:repository': 'read', 'codeup:branch': 'read', 'codeup:commit': 'read' });
    expect(areaState(code, s)).toBe('all');
    s = toggleScope(code.sub_scopes[1], s, false);
    expect(areaState(code, s)).toBe('some');
    s = toggleScope(code, toggleScope(base, s, true), false);
    expect(s).toEqual({ 'base:user': 'read' });
    expect(areaState(code, s)).toBe('none');
  });

  it('keeps a chosen write when the parent is checked again; write only where offered', () => {
    let s = setPermission(code.sub_scopes[0], toggleScope(code.sub_scopes[0], {}, true), 'write');
    s = toggleScope(code, s, true);
    expect(s['codeup:repository']).toBe('write');
    expect(setPermission(code.sub_scopes[2], s, 'write')['codeup:commit']).toBe('read');
  });

  it('grants in catalogue order, and back', () => {
    const s = { 'base:user': 'read', 'codeup:branch': 'write', 'codeup:repository': 'read' } as const;
    const grants = toGrants(tree, s);
    expect(grants).toEqual(['codeup:repository:read', 'codeup:branch:write', 'base:user:read']);
    expect(fromGrants(tree, grants)).toEqual(s);
    expect(fromGrants(tree, ['codeup:write', 'unknown:x:read'])).toEqual({
      'codeup:repository': 'write',
      'codeup:branch': 'write',
      'codeup:commit': 'read',
    });
    expect(toGrants(tree, {})).toEqual([]);
  });

  it('names the grants re-creating leaves out: unknown resources, write on a read-only one; nothing without a catalogue', () => {
    const grants = ['codeup:repository:write', 'codeup:gone:read', 'base:user:write'];
    expect(droppedGrants(tree, grants)).toEqual(['codeup:gone:read', 'base:user:write']);
    expect(droppedGrants(tree, ['codeup:repository:read'])).toEqual([]);
    expect(droppedGrants([], grants)).toEqual([]);
  });
});
