// Scheduling priority of whole process trees (Linux: a nice value belongs to each thread, and a new thread or process
// starts with its creator's). bench:web gives the browser the machine's cores first: on a phone, the service, the
// proxy and Lighthouse would run on other machines, not take the phone's CPU in the middle of its tasks.
import fs from 'node:fs';
import os from 'node:os';

/** The processes under `pid` (itself included), from each process's parent in /proc/<pid>/stat. */
export function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (2nd field) is in parentheses and may hold spaces: the parent is the 2nd field after it.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/**
 * Sets the nice value of every thread of `pid` and of its descendants; answers how many threads took it. Raising
 * the priority (a lower value) needs root; a thread that refuses or ended meanwhile is skipped.
 */
export function setTreePriority(pid: number, priority: number): number {
  let set = 0;
  for (const p of processTree(pid)) {
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        os.setPriority(Number(tid), priority);
        set++;
      } catch {
        // Ended, or not ours to raise.
      }
    }
  }
  return set;
}
