import type { ServerLocale } from '../i18n/index';

/**
 * The catalogue of personal-access-token scopes, modelled on the suite's areas. A grant is
 * `<area>:<resource>:read|write` (write implies read, see `hasScope`); a token may also be asked
 * for `<area>:read|write`, which selects every resource of the area (read-only ones stay read).
 */

/** Strongest operation a scope offers: read-only, or read and write. */
export type ScopeOperate = 'read' | 'read_write';

/** One grantable resource of an area. */
export interface ScopeResource {
  key: string;
  operate: ScopeOperate;
  desc: Record<ServerLocale, string>;
}

/** An area of the suite and its resources (the tree's parent level). */
export interface ScopeArea {
  key: string;
  desc: Record<ServerLocale, string>;
  resources: ScopeResource[];
}

const rw = 'read_write' as const;
const ro = 'read' as const;

/** The areas in display order; keys never change once released (tokens store them). */
export const SCOPE_CATALOGUE: readonly ScopeArea[] = [
  {
    key: 'organization',
    desc: { zh_CN: '组织管理', en_US: 'Organization' },
    resources: [
      { key: 'organization:info', operate: ro, desc: { zh_CN: '组织信息', en_US: 'Organization information' } },
      { key: 'organization:member', operate: rw, desc: { zh_CN: '成员', en_US: 'Members' } },
      { key: 'organization:department', operate: rw, desc: { zh_CN: '部门', en_US: 'Departments' } },
      { key: 'organization:role', operate: ro, desc: { zh_CN: '角色', en_US: 'Roles' } },
    ],
  },
  {
    key: 'projex',
    desc: { zh_CN: '项目协作', en_US: 'Projects and work items' },
    resources: [
      { key: 'projex:project', operate: rw, desc: { zh_CN: '项目', en_US: 'Projects' } },
      { key: 'projex:workitem', operate: rw, desc: { zh_CN: '工作项', en_US: 'Work items' } },
      { key: 'projex:sprint', operate: rw, desc: { zh_CN: '迭代', en_US: 'Sprints' } },
    ],
  },
  {
    key: 'codeup',
    desc: { zh_CN: '代码管理', en_US: 'Code repositories' },
    resources: [
      { key: 'codeup:repository', operate: rw, desc: { zh_CN: '代码库', en_US: 'Repositories' } },
      { key: 'codeup:branch', operate: rw, desc: { zh_CN: '分支与标签', en_US: 'Branches and tags' } },
      { key: 'codeup:merge-request', operate: rw, desc: { zh_CN: '合并请求', en_US: 'Merge requests' } },
      { key: 'codeup:commit', operate: ro, desc: { zh_CN: '提交记录', en_US: 'Commits' } },
    ],
  },
  {
    key: 'flow',
    desc: { zh_CN: '流水线', en_US: 'Pipelines' },
    resources: [
      { key: 'flow:pipeline', operate: rw, desc: { zh_CN: '流水线', en_US: 'Pipelines' } },
      { key: 'flow:pipeline-run', operate: rw, desc: { zh_CN: '运行记录', en_US: 'Pipeline runs' } },
      { key: 'flow:service-connection', operate: ro, desc: { zh_CN: '服务连接', en_US: 'Service connections' } },
    ],
  },
  {
    key: 'packages',
    desc: { zh_CN: '制品仓库', en_US: 'Packages' },
    resources: [
      { key: 'packages:repository', operate: rw, desc: { zh_CN: '制品仓库', en_US: 'Package repositories' } },
      { key: 'packages:artifact', operate: rw, desc: { zh_CN: '制品', en_US: 'Artifacts' } },
    ],
  },
  {
    key: 'testhub',
    desc: { zh_CN: '测试管理', en_US: 'Test management' },
    resources: [
      { key: 'testhub:testcase', operate: rw, desc: { zh_CN: '测试用例', en_US: 'Test cases' } },
      { key: 'testhub:testplan', operate: rw, desc: { zh_CN: '测试计划', en_US: 'Test plans' } },
    ],
  },
  {
    key: 'base',
    desc: { zh_CN: '用户信息', en_US: 'User information' },
    resources: [{ key: 'base:user', operate: ro, desc: { zh_CN: '用户基本信息', en_US: 'Basic user information' } }],
  },
];

const resourceIndex = new Map<string, { resource: ScopeResource; order: number }>();
SCOPE_CATALOGUE.flatMap((a) => a.resources).forEach((resource, order) =>
  resourceIndex.set(resource.key, { resource, order }),
);
const areaIndex = new Map(SCOPE_CATALOGUE.map((a) => [a.key, a]));

/** True for a grant a token can hold: `<resource>:read`, or `<resource>:write` on a read/write resource. */
export function isCatalogueGrant(grant: string | undefined): boolean {
  if (!grant) return false;
  const i = grant.lastIndexOf(':');
  const entry = resourceIndex.get(grant.slice(0, i));
  const op = grant.slice(i + 1);
  return !!entry && (op === 'read' || (op === 'write' && entry.resource.operate === 'read_write'));
}

/** Names a scope an open-API route needs; throws at start-up when it is not in the catalogue. */
export function catalogueScope(grant: string): string {
  if (!isCatalogueGrant(grant)) throw new Error(`scope "${grant}" is not in the token scope catalogue`);
  return grant;
}

/** Why a requested scope list was refused. */
export type ScopeProblem = { code: 'unknown' | 'readOnly'; scope: string } | { code: 'empty' };

/**
 * Turns requested scopes into the stored grants: area requests expand to all their resources,
 * write supersedes read on the same resource, duplicates go, the order follows the catalogue.
 */
export function normalizeScopes(requested: readonly string[]): { ok: true; scopes: string[] } | ScopeProblemResult {
  const ops = new Map<string, 'read' | 'write'>();
  const put = (key: string, op: 'read' | 'write') => {
    if (ops.get(key) !== 'write') ops.set(key, op);
  };
  for (const raw of requested) {
    const i = raw.lastIndexOf(':');
    const base = i > 0 ? raw.slice(0, i) : '';
    const op = raw.slice(i + 1);
    if (i <= 0 || (op !== 'read' && op !== 'write')) return { ok: false, problem: { code: 'unknown', scope: raw } };
    const area = areaIndex.get(base);
    if (area) {
      for (const r of area.resources) put(r.key, op === 'write' && r.operate === 'read_write' ? 'write' : 'read');
      continue;
    }
    const entry = resourceIndex.get(base);
    if (!entry) return { ok: false, problem: { code: 'unknown', scope: raw } };
    if (op === 'write' && entry.resource.operate !== 'read_write')
      return { ok: false, problem: { code: 'readOnly', scope: raw } };
    put(base, op);
  }
  if (ops.size === 0) return { ok: false, problem: { code: 'empty' } };
  const scopes = [...ops]
    .sort(([a], [b]) => resourceIndex.get(a)!.order - resourceIndex.get(b)!.order)
    .map(([key, op]) => `${key}:${op}`);
  return { ok: true, scopes };
}

/** The failing side of `normalizeScopes`. */
export interface ScopeProblemResult {
  ok: false;
  problem: ScopeProblem;
}

/** The two permission levels a resource can be granted at (`GET /users/ajax/v1/tokens:permissions`). */
export const PERMISSION_LEVELS: ReadonlyArray<{ key: 'read' | 'write'; desc: Record<ServerLocale, string> }> = [
  { key: 'read', desc: { zh_CN: '只读', en_US: 'Read-only' } },
  { key: 'write', desc: { zh_CN: '读写', en_US: 'Read and write' } },
];
