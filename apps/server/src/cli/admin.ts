/**
 * Operator commands against the configured database (the same environment as the server):
 *   npm run admin -- promote <email-or-username> <role>
 * With the embedded database it uses the PostgreSQL of a server running on DATA_DIR, or starts it.
 * A staff role needs a full account with a verified e-mail address; each change is written to the
 * admin audit (actor "cli:<OS user>") in the change's own transaction (docs/security.md).
 */
import { USER_ROLES } from '@memeslam/protocol';
import { cliActor, promotionRefusal, recordAdminAction } from '../admin/audit.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { consoleLog } from '../db/embedded.ts';
import { findUserByLogin, setRole } from '../users/repository.ts';

const USAGE = `usage: npm run admin -- promote <email-or-username> <${USER_ROLES.join('|')}>`;

async function main(args: readonly string[]): Promise<number> {
  const [command, login, role] = args;
  if (command !== 'promote' || !login || !role || args.length !== 3) {
    console.error(USAGE);
    return 2;
  }
  if (!(USER_ROLES as readonly string[]).includes(role)) {
    console.error(`Unknown role "${role}": use one of ${USER_ROLES.join(', ')}`);
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase({ ...config, log: consoleLog, attach: true });
  try {
    const user = await findUserByLogin(database.db, login.trim());
    if (!user) {
      console.error(`No user with e-mail or username "${login}"`);
      return 1;
    }
    const newRole = role as (typeof USER_ROLES)[number];
    const refusal = promotionRefusal(user, newRole);
    if (refusal) {
      console.error(`${refusal}: ${user.username} <${user.email}> stays ${user.role}`);
      return 1;
    }
    const updated = await database.db.transaction(async (tx) => {
      const changed = await setRole(tx, user.id, newRole);
      await recordAdminAction(tx, {
        actor: cliActor(),
        action: 'user.role',
        targetId: user.id,
        details: { username: user.username, from: user.role, to: newRole },
      });
      return changed;
    });
    console.log(`${updated.username} <${updated.email}> is now ${updated.role}`);
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
