// `npm run validate:editions`: every manifest in editions/ against schemas/edition.schema.json.
import { EditionError, formatProblem, loadAllEditions } from '../server/edition/loader';
import { editionBuildPaths } from './lib/edition-build';

const paths = editionBuildPaths(process.cwd());
try {
  const all = loadAllEditions({ editionsDir: paths.editionsDir, pluginsDir: paths.pluginsDir, root: paths.root });
  console.log(`editions valid: ${all.map((m) => m.id).join(', ')}`);
} catch (e) {
  if (!(e instanceof EditionError)) throw e;
  for (const p of e.problems) console.error(formatProblem(p));
  console.error(`${e.problems.length} problem(s) in edition manifests`);
  process.exit(1);
}
