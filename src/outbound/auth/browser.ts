// Open the authorization URL in the user's browser, but only where one can exist: a desktop
// session (macOS, Windows, or Linux with a display and not over SSH). Elsewhere there is no
// opener and the printed URL is the way. Spawned detached, output ignored: stdout stays clean.

import { spawn } from 'node:child_process';

export function browserOpener(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ((url: string) => void) | undefined {
  if (env.SWITCHBOARD_NO_BROWSER || env.CI) return undefined;
  let cmd: string, args: (url: string) => string[];
  if (platform === 'darwin') [cmd, args] = ['open', (u) => [u]];
  else if (platform === 'win32') [cmd, args] = ['cmd', (u) => ['/c', 'start', '""', u.replace(/&/g, '^&')]];
  else {
    if (!(env.DISPLAY || env.WAYLAND_DISPLAY) || env.SSH_CONNECTION || env.SSH_TTY) return undefined;
    [cmd, args] = ['xdg-open', (u) => [u]];
  }
  return (url) => {
    if (!/^https?:\/\//i.test(url)) return; // never hand the shell anything but a web URL
    const child = spawn(cmd, args(url), { detached: true, stdio: 'ignore' });
    child.on('error', () => {}); // no opener installed: the URL was printed anyway
    child.unref();
  };
}
