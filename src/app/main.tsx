// antd's core rules and CSS variables for this edition, built from ./theme.ts (scripts/lib/antd-styles.ts), then ours.
import '@antd-styles/core';
import './global.css';
import { evaluateInstalledModules, nextTask } from './evaluate-modules';

// The page's scripts are all there by now (the service names the page's lazy files before this one), but none of
// their modules has run. Running them on demand would take one long task when the app starts and another when the
// page's code is imported; run here, a few milliseconds at a time, they leave the main thread free in between.
// `start` is in this file's chunk ("eager") and runs only when imported, after them, in a task of its own (with the
// last slice it made one 22-42 ms task on the bench's two-core machine, four times that on the simulated phone).
void evaluateInstalledModules()
  .then(nextTask)
  .then(async () => {
    const { start } = await import(/* webpackMode: "eager" */ './start');
    await start();
  });
