import type { TokenScope } from './contract';

/** Chosen resources and the permission of each: read-only (`read`) or read and write (`write`). */
export type ScopeSelection = Record<string, 'read' | 'write'>;

/** How much of an area is chosen, for its checkbox (checked, indeterminate, empty). */
export type AreaState = 'all' | 'some' | 'none';

/** The resources under a node (a resource is its own only leaf). */
export function leavesOf(node: TokenScope): TokenScope[] {
  return node.sub_scopes.length ? node.sub_scopes.flatMap(leavesOf) : [node];
}

/** Checkbox state of an area from the selection. */
export function areaState(area: TokenScope, selection: ScopeSelection): AreaState {
  const leaves = leavesOf(area);
  const chosen = leaves.filter((l) => selection[l.scope_key]).length;
  return chosen === 0 ? 'none' : chosen === leaves.length ? 'all' : 'some';
}

/**
 * Checks or unchecks a node. Checking a parent selects all its children (read-only unless a child
 * was already chosen with write); unchecking removes the parent and all its children.
 */
export function toggleScope(node: TokenScope, selection: ScopeSelection, checked: boolean): ScopeSelection {
  const next = { ...selection };
  for (const leaf of leavesOf(node)) {
    if (checked) next[leaf.scope_key] = selection[leaf.scope_key] ?? 'read';
    else delete next[leaf.scope_key];
  }
  return next;
}

/** Sets one chosen resource's permission; write only where the catalogue offers it. */
export function setPermission(
  leaf: TokenScope,
  selection: ScopeSelection,
  permission: 'read' | 'write',
): ScopeSelection {
  const p = permission === 'write' && leaf.scope_operate === 'read_write' ? 'write' : 'read';
  return { ...selection, [leaf.scope_key]: p };
}

/** The grants to send (`<resource>:read|write`), in catalogue order. */
export function toGrants(tree: TokenScope[], selection: ScopeSelection): string[] {
  return tree
    .flatMap(leavesOf)
    .filter((l) => selection[l.scope_key])
    .map((l) => `${l.scope_key}:${selection[l.scope_key]}`);
}

/** The selection a token's grants stand for; area grants select all their resources. */
export function fromGrants(tree: TokenScope[], grants: string[]): ScopeSelection {
  let selection: ScopeSelection = {};
  const nodes = new Map<string, TokenScope>();
  const walk = (n: TokenScope) => {
    nodes.set(n.scope_key, n);
    n.sub_scopes.forEach(walk);
  };
  tree.forEach(walk);
  for (const grant of grants) {
    const i = grant.lastIndexOf(':');
    const node = nodes.get(grant.slice(0, i));
    const op = grant.slice(i + 1);
    if (!node || (op !== 'read' && op !== 'write')) continue;
    for (const leaf of leavesOf(node)) {
      if (selection[leaf.scope_key] === 'write') continue;
      selection = setPermission(leaf, selection, op);
    }
  }
  return selection;
}

/**
 * The grants of a token the catalogue no longer offers as they are (an unknown resource, or write on one now
 * read-only): what re-creating it leaves out. Empty while the catalogue is not loaded (nothing can be told yet).
 */
export function droppedGrants(tree: TokenScope[], grants: string[]): string[] {
  if (!tree.length) return [];
  const kept = new Set(toGrants(tree, fromGrants(tree, grants)));
  return grants.filter((g) => !kept.has(g));
}
