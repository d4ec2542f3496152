import fs from 'node:fs';

/**
 * A built file read once per version: the parsed value is kept until the file's mtime changes, so a rebuild is
 * picked up without a restart. A missing or unreadable file reads as undefined.
 */
export class FileCache<T> {
  private readonly entries = new Map<string, { mtimeMs: number; value: T }>();

  constructor(private readonly parse: (text: string) => T) {}

  get(file: string): T | undefined {
    try {
      const st = fs.statSync(file);
      const hit = this.entries.get(file);
      if (hit && hit.mtimeMs === st.mtimeMs) return hit.value;
      const value = this.parse(fs.readFileSync(file, 'utf8'));
      this.entries.set(file, { mtimeMs: st.mtimeMs, value });
      return value;
    } catch {
      return undefined;
    }
  }
}
