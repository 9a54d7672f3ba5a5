import type { KeySecret } from '../run/task-details.ts';
import type { SecretFiles } from '../run/secret-files.ts';

/**
 * Environment that lets git authenticate with a repository key without prompting and without
 * a secret on any command line: SSH keys through a 0600 key file and GIT_SSH_COMMAND (a
 * passphrase through SSH_ASKPASS), HTTPS login/password through GIT_ASKPASS.
 * @example const env = gitCredentialEnv(key, files, process.env.SSH_CONFIG);
 */
export function gitCredentialEnv(key: KeySecret | null, files: SecretFiles, sshConfigPath = ''): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  const sshOptions = ['-o StrictHostKeyChecking=no', '-o UserKnownHostsFile=/dev/null', '-o BatchMode=no'];
  if (sshConfigPath) sshOptions.push(`-F ${quote(sshConfigPath)}`);
  if (key?.type === 'ssh' && key.privateKey) {
    const keyFile = files.write('git-key', key.privateKey.endsWith('\n') ? key.privateKey : `${key.privateKey}\n`);
    sshOptions.push(`-i ${quote(keyFile)}`, '-o IdentitiesOnly=yes');
    if (key.passphrase) {
      env.SIGNALBOX_ASKPASS_SECRET = key.passphrase;
      env.SSH_ASKPASS = askpassScript(files);
      env.SSH_ASKPASS_REQUIRE = 'force';
      env.DISPLAY = env.DISPLAY ?? ':0';
    }
  }
  if (key?.type === 'login_password' && key.password) {
    env.SIGNALBOX_ASKPASS_USER = key.login;
    env.SIGNALBOX_ASKPASS_SECRET = key.password;
    env.GIT_ASKPASS = askpassScript(files);
  }
  env.GIT_SSH_COMMAND = `ssh ${sshOptions.join(' ')}`;
  return env;
}

/** Answers "Username" prompts with the login and any other prompt with the secret, both from env. */
function askpassScript(files: SecretFiles): string {
  return files.write('askpass', '#!/bin/sh\ncase "$1" in\n  Username*) printf "%s\\n" "$SIGNALBOX_ASKPASS_USER" ;;\n  *) printf "%s\\n" "$SIGNALBOX_ASKPASS_SECRET" ;;\nesac\n', 0o700);
}

/** A login without password goes into an HTTPS URL as `login@` (the password never does). */
export function gitUrlWithLogin(url: string, key: KeySecret | null): string {
  if (key?.type !== 'login_password' || !key.login || !/^https?:\/\//.test(url) || /^https?:\/\/[^/]*@/.test(url)) return url;
  return url.replace(/^(https?:\/\/)/, `$1${encodeURIComponent(key.login)}@`);
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
