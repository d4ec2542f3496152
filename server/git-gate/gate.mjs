// The git gate (issue 42): the forced command of every key the account service authorizes for sshd,
// `gate.mjs <config> <key id>`. Reads what the client asked for (SSH_ORIGINAL_COMMAND), lets through only
// git-upload-pack, git-upload-archive (read) and git-receive-pack (write) on `<organisation>/<repo>.git`, asks the
// service whether this key may do that now from the client's address (SSH_CONNECTION), and runs git on
// `<repository root>/<organisation name>/<repo>.git` — or prints the service's refusal, in the member's language, on
// stderr (git shows it) and exits 1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { askService, readConfig } from './common.mjs';
import { COMMANDS, parseCommand, safeRepositoryPath, unquote } from './command.mjs';

/** What the gate says itself, in the two languages the product speaks. */
const TEXTS = {
  en_US: {
    noShell: 'You are authenticated, but this host serves git only (clone, fetch, pull, push): it offers no shell.',
    unsupported: 'Only git clone, fetch, pull, push and archive are served here.',
    badPath: 'The repository path "{path}" is not valid. Use <organization>/<repository>.git.',
    unreachable: 'The account service could not be reached; try again later.',
    notFound: 'The repository "{path}" does not exist.',
  },
  zh_CN: {
    noShell: '认证成功，但此主机只提供 git 服务（克隆、拉取、推送），不提供 shell。',
    unsupported: '此处只支持 git 的克隆、拉取、推送和归档。',
    badPath: '代码库路径“{path}”无效。请使用“<企业>/<代码库>.git”。',
    unreachable: '无法连接账号服务，请稍后重试。',
    notFound: '代码库“{path}”不存在。',
  },
};

/**
 * The client's language as ssh sent it (LANG, when sshd accepts it): zh_CN or en_US, or undefined.
 * @returns {'zh_CN' | 'en_US' | undefined}
 */
function clientLocale() {
  const lang = (process.env.LC_ALL || process.env.LANG || '').toLowerCase();
  if (!lang || lang === 'c' || lang === 'posix' || lang.startsWith('c.')) return undefined;
  return lang.startsWith('zh') ? 'zh_CN' : 'en_US';
}

/**
 * Prints a refusal on stderr (git shows it to the member) and exits 1.
 * @param {string} message
 * @returns {never}
 */
function refuse(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  const [, , configFile, keyId] = process.argv;
  const config = readConfig(configFile);
  let texts = TEXTS[clientLocale() ?? config.locale ?? 'en_US'] ?? TEXTS.en_US;
  if (!keyId || !/^[A-Za-z0-9_-]{1,64}$/.test(keyId)) refuse('git gate: no key id given');
  const original = process.env.SSH_ORIGINAL_COMMAND;
  if (!original) refuse(texts.noShell);
  const asked = parseCommand(original);
  if (asked === null) refuse(texts.unsupported);
  const named = original.trim().replace(/^git[- ]\S+\s+/, '');
  // eslint-disable-next-line no-control-regex -- the path is echoed: no control character reaches the terminal
  const shown = (unquote(named) ?? named).slice(0, 100).replace(/[\u0000-\u001f\u007f]/g, '?');
  if (asked === 'bad-path') refuse(texts.badPath.replace('{path}', shown));

  // SSH_CONNECTION: "client address, client port, server address, server port".
  const address = (process.env.SSH_CONNECTION || process.env.SSH_CLIENT || '').split(' ')[0];
  const lang = clientLocale();
  const res = await askService(config, '/internal/v1/ssh/git-access', {
    method: 'POST',
    body: { key_id: keyId, command: asked.command, repository: asked.repository, address, client: 'git over ssh' },
    language: lang ? lang.replace('_', '-') : undefined,
  });
  if (!res) refuse(texts.unreachable);
  let answer = null;
  try {
    answer = JSON.parse(res.body);
  } catch {
    answer = null;
  }
  if (res.status !== 200) refuse(typeof answer?.message === 'string' ? answer.message : texts.unreachable);
  texts = TEXTS[answer.locale] ?? texts;

  // The service's spelling of the path (the organisation's own case); checked again before it touches the disk.
  const root = path.resolve(config.repositories);
  if (typeof answer.repository !== 'string' || !safeRepositoryPath(answer.repository)) refuse(texts.unreachable);
  const dir = path.resolve(root, answer.repository);
  if (!dir.startsWith(root + path.sep)) refuse(texts.badPath.replace('{path}', shown));
  let isDir = false;
  try {
    isDir = fs.statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) refuse(texts.notFound.replace('{path}', answer.repository));

  const child = spawn(config.git ?? '/usr/bin/git', [COMMANDS[asked.command], dir], { stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGHUP', 'SIGINT'])) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', () => refuse(texts.unreachable));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

await main();
