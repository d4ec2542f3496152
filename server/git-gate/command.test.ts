import { describe, expect, it } from 'vitest';
import { parseCommand, safeRepositoryPath, unquote } from './command.mjs';

// The gate trusts nothing a client sends: what it lets through to git is one of three commands on a path that stays
// under the repository root.

describe('the git gate’s reading of SSH_ORIGINAL_COMMAND', () => {
  it('reads the three git commands with the path as git quotes it, or bare', () => {
    expect(parseCommand("git-upload-pack 'Acme/demo.git'")).toEqual({
      command: 'git-upload-pack',
      repository: 'Acme/demo.git',
    });
    expect(parseCommand("git-receive-pack '/Acme/demo.git'")).toEqual({
      command: 'git-receive-pack',
      repository: '/Acme/demo.git',
    });
    expect(parseCommand('git upload-archive Acme/demo')).toEqual({
      command: 'git-upload-archive',
      repository: 'Acme/demo',
    });
    expect(parseCommand("git-upload-pack 'Demo Organization/demo.git'")).toEqual({
      command: 'git-upload-pack',
      repository: 'Demo Organization/demo.git',
    });
    // A quote and an exclamation mark the way git writes them.
    expect(unquote(`'O'\\''Brien'\\!'/x.git'`)).toBe("O'Brien!/x.git");
  });

  it('refuses any other command, and paths that could leave the repository root', () => {
    for (const other of [
      '',
      'ls /',
      'bash',
      'git-upload-pack',
      'git-shell -c x',
      'scp -t /',
      'git-lfs-authenticate a/b download',
    ])
      expect(parseCommand(other), other).toBeNull();
    for (const path of [
      "'../etc/passwd'",
      "'Acme/../../x.git'",
      "'Acme/.hidden.git'",
      "'.ssh/authorized_keys'",
      "'~root/x.git'",
      "'//etc/x.git'",
      "'Acme/demo.git/objects'",
      "'Acme'",
      "'Acme\\demo.git'",
      "'Acme/demo.git' ; rm -rf /",
      '$(reboot)/x.git',
      "'Acme/de\nmo.git'",
      "'unterminated",
    ])
      expect(parseCommand(`git-upload-pack ${path}`), path).toBe('bad-path');
    expect(safeRepositoryPath('x'.repeat(150) + '/' + 'y'.repeat(150))).toBe(false);
  });
});
