// Finding the baton binary: the baton.path setting, else the one bundled in
// the extension for this platform, else baton on PATH.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface Found {
  path: string;
  from: 'setting' | 'bundled' | 'PATH';
}

const exe = process.platform === 'win32' ? 'baton.exe' : 'baton';

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function expandHome(p: string): string {
  if (p === '~') {
    return os.homedir();
  }
  if (p.startsWith('~/') || p.startsWith('~\\')) {
    return path.join(os.homedir(), p.slice(2));
  }
  return p;
}

/** bundledPath is where the vsix keeps this platform's binary. */
export function bundledPath(extensionDir: string): string {
  return path.join(extensionDir, 'bin', `${process.platform}-${process.arch}`, exe);
}

/**
 * findBaton returns the binary to run, or an error message naming what was
 * tried. A baton.path that does not point at an executable is an error: it
 * is not silently replaced by another binary.
 */
export function findBaton(setting: string, extensionDir: string, workspaceDir?: string): Found | { error: string } {
  const configured = setting.trim();
  if (configured !== '') {
    let p = expandHome(configured);
    if (workspaceDir) {
      p = p.replace(/\$\{workspaceFolder\}/g, workspaceDir);
    }
    if (!path.isAbsolute(p) && workspaceDir) {
      p = path.join(workspaceDir, p);
    }
    if (isExecutable(p)) {
      return { path: p, from: 'setting' };
    }
    return { error: `the "baton.path" setting is ${JSON.stringify(configured)}, which is not an executable file.` };
  }

  const bundled = bundledPath(extensionDir);
  if (fs.existsSync(bundled)) {
    // Some unzip paths drop the executable bit; put it back.
    if (!isExecutable(bundled) && process.platform !== 'win32') {
      try {
        fs.chmodSync(bundled, 0o755);
      } catch {
        // fall through to PATH
      }
    }
    if (isExecutable(bundled)) {
      return { path: bundled, from: 'bundled' };
    }
  }

  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, exe);
    if (isExecutable(p)) {
      return { path: p, from: 'PATH' };
    }
  }
  return {
    error:
      `no baton binary found: none is bundled for ${process.platform}-${process.arch} and "${exe}" is not on PATH. ` +
      'Install baton (go install github.com/baton-md/baton/cmd/baton@latest) or set "baton.path".',
  };
}
