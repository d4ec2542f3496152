// antd's stylesheet in the edition's theme (scripts/lib/antd-sheet.ts), then ours; both join index.css.
import '@antd-styles/edition';
import './global.css';
import { start } from './start';

void start();
