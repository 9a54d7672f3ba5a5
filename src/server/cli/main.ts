import { ConfigError, loadConfig, type Config } from '../config/config.ts';
import { VERSION } from '../version.ts';

/** `signalbox <command>`: server (default), migrate, user …, vault rekey, jwt rotate, runner register|start|unregister, mcp, version. */
async function main(argv: string[]): Promise<number> {
  const { command, rest, configPath } = splitArgs(argv);
  if (command === 'version') {
    console.log(VERSION);
    return 0;
  }
  // a client of another server: it reads no configuration of its own
  if (command === 'mcp') {
    const { runMcpCommand } = await import('./mcp.command.ts');
    return runMcpCommand(rest);
  }
  const config = readConfig(configPath);
  if (!config) return 2;
  switch (command) {
    case 'server':
    case 'service': {
      const { runServer } = await import('../main.ts');
      await runServer(config);
      return -1;
    }
    case 'migrate': {
      const { openDatabase, migrateToLatest } = await import('../db/database.ts');
      const db = openDatabase(config.db);
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      await db.destroy();
      return 0;
    }
    case 'user':
    case 'users': {
      const { runUserCommand } = await import('./user.command.ts');
      return runUserCommand(config, rest);
    }
    case 'vault':
    case 'vaults': {
      const { runVaultCommand } = await import('./vault.command.ts');
      return runVaultCommand(config, rest);
    }
    case 'jwt': {
      const { runJwtCommand } = await import('./jwt.command.ts');
      return runJwtCommand(config, rest);
    }
    case 'runner': {
      const { runRunnerCommand } = await import('./runner.command.ts');
      return runRunnerCommand(config, rest);
    }
    default:
      console.error(`unknown command "${command}"; use server, migrate, user, vault, jwt, runner, mcp or version`);
      return 2;
  }
}

function splitArgs(argv: string[]): { command: string; rest: string[]; configPath: string | undefined } {
  const rest: string[] = [];
  let configPath: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--config') configPath = argv[++i];
    else if (argv[i]!.startsWith('--config=')) configPath = argv[i]!.slice('--config='.length);
    else if (argv[i] === '--no-config') configPath = undefined;
    else rest.push(argv[i]!);
  }
  return { command: rest.shift() ?? 'server', rest, configPath: configPath ?? process.env.SEMAPHORE_CONFIG_PATH };
}

function readConfig(configPath: string | undefined): Config | null {
  try {
    return loadConfig(process.env, { configPath });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`signalbox: ${err.message}`);
      return null;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exit(code); },
  (err) => { console.error(`signalbox: ${err instanceof Error ? err.message : String(err)}`); process.exit(1); },
);
