import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { DEFAULT_EDITION, type EditionManifest } from '../../schemas/edition';
import { projectRoot } from '../project-root';

/** One reason a manifest is invalid, precise enough to fix it without reading code. */
export interface EditionProblem {
  /** Path of the manifest as the user would type it, e.g. `editions/global.json`. */
  file: string;
  /** JSON pointer inside the manifest, `/` for the whole document. */
  pointer: string;
  /** The rule that failed, in words. */
  message: string;
}

/** Raised when one or more manifests are invalid; `problems` lists every one. */
export class EditionError extends Error {
  constructor(public readonly problems: EditionProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'EditionError';
  }
}

/** Where the project keeps its editions and plugins (so tests can point at a temporary tree). */
export interface EditionPaths {
  /** Folder holding `<id>.json` manifests and their `assets/`. */
  editionsDir: string;
  /** Folder holding `plugins/<id>/index.ts`; when set, listed plugins must exist. */
  pluginsDir?: string;
  /** Base that file names in messages are shown relative to. */
  root?: string;
}

const schemaPath = path.join(projectRoot, 'schemas', 'edition.schema.json');

let validator: ReturnType<Ajv['compile']> | undefined;

function getValidator() {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true });
    const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8')) as object;
    validator = ajv.compile(schema);
  }
  return validator;
}

/** Formats a problem as `file pointer message`, the form the build and the service print. */
export function formatProblem(p: EditionProblem): string {
  return `${p.file} ${p.pointer} ${p.message}`;
}

function describe(err: ErrorObject): { pointer: string; message: string } {
  let pointer = err.instancePath || '/';
  let message = err.message ?? 'is invalid';
  if (err.keyword === 'additionalProperties') {
    const extra = (err.params as { additionalProperty: string }).additionalProperty;
    pointer = `${err.instancePath}/${extra}`;
    message = 'is not an allowed property';
  } else if (err.keyword === 'required') {
    const missing = (err.params as { missingProperty: string }).missingProperty;
    pointer = `${err.instancePath}/${missing}`;
    message = 'is required';
  } else if (err.keyword === 'enum') {
    message = `must be one of ${(err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (err.keyword === 'oneOf') {
    const hint = (err.parentSchema as { description?: string } | undefined)?.description;
    message = hint ? `must be one of the allowed forms: ${hint}` : 'must match exactly one allowed form';
  } else if (err.keyword === 'pattern') {
    message = `must match pattern "${(err.params as { pattern: string }).pattern}"`;
  }
  return { pointer, message };
}

/** Lists the edition ids found in a folder: every `<id>.json`, sorted. */
export function listEditionIds(editionsDir: string): string[] {
  return fs
    .readdirSync(editionsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** Reads and validates one manifest; throws EditionError naming file, pointer and rule. */
export function loadEdition(id: string, paths: EditionPaths): EditionManifest {
  const abs = path.join(paths.editionsDir, `${id}.json`);
  const file = path.relative(paths.root ?? process.cwd(), abs) || abs;
  const problem = (pointer: string, message: string): EditionProblem => ({ file, pointer, message });
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(abs, 'utf8'));
  } catch (e) {
    throw new EditionError([problem('/', `is not readable JSON: ${(e as Error).message}`)]);
  }
  const validate = getValidator();
  if (!validate(data)) {
    const seen = new Set<string>();
    const problems = (validate.errors ?? [])
      // oneOf reports each failed branch; the summary line is the one a person needs.
      .filter((e) => !/\/oneOf\/\d+\//.test(e.schemaPath))
      .map((e) => problem(describe(e).pointer, describe(e).message))
      .filter((p) => {
        const k = formatProblem(p);
        return seen.has(k) ? false : (seen.add(k), true);
      });
    throw new EditionError(problems);
  }
  const m = data as EditionManifest;
  const problems: EditionProblem[] = [];
  if (m.id !== id) problems.push(problem('/id', `must equal the file name "${id}"`));
  const assets: [string, string][] = [['/brand/logo', m.brand.logo]];
  if (m.brand.favicon) assets.push(['/brand/favicon', m.brand.favicon]);
  m.appSwitcher.forEach((a, i) => assets.push([`/appSwitcher/${i}/logo`, a.logo]));
  Object.entries(m.names.variants ?? {}).forEach(
    ([k, v]) => v.logo && assets.push([`/names/variants/${k}/logo`, v.logo]),
  );
  for (const [pointer, rel] of assets) {
    if (!fs.existsSync(path.join(paths.editionsDir, rel)))
      problems.push(problem(pointer, `names a missing file "${rel}"`));
  }
  const dup = (keys: string[], at: string) =>
    keys.forEach((k, i) => keys.indexOf(k) !== i && problems.push(problem(`${at}/${i}/key`, `duplicates key "${k}"`)));
  dup(
    m.settingsMenu.map((e) => e.key),
    '/settingsMenu',
  );
  dup(
    m.appSwitcher.map((e) => e.key),
    '/appSwitcher',
  );
  if (paths.pluginsDir) {
    m.plugins.forEach((p, i) => {
      if (!fs.existsSync(path.join(paths.pluginsDir!, p, 'index.ts'))) {
        problems.push(problem(`/plugins/${i}`, `names plugin "${p}" but plugins/${p}/index.ts does not exist`));
      }
    });
  }
  if (problems.length) throw new EditionError(problems);
  return m;
}

/** Loads every manifest in the folder, collecting all problems of all files before failing. */
export function loadAllEditions(paths: EditionPaths): EditionManifest[] {
  const out: EditionManifest[] = [];
  const problems: EditionProblem[] = [];
  for (const id of listEditionIds(paths.editionsDir)) {
    try {
      out.push(loadEdition(id, paths));
    } catch (e) {
      if (e instanceof EditionError) problems.push(...e.problems);
      else throw e;
    }
  }
  if (problems.length) throw new EditionError(problems);
  return out;
}

/** Picks the edition to run: the asked one when it exists, else the default with a warning. */
export function resolveEditionId(
  asked: string | undefined,
  available: string[],
  warn: (msg: string) => void = () => {},
): string {
  if (!asked) return DEFAULT_EDITION;
  if (available.includes(asked)) return asked;
  warn(`unknown edition "${asked}", falling back to "${DEFAULT_EDITION}"`);
  return DEFAULT_EDITION;
}
