// Makes the built CLI directly executable (npm sets the bit on install, but not for a git clone).
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/main.js', import.meta.url), 0o755);
