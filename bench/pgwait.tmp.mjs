import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire('/work/main/apps/server/package.json');
const pg = require('pg');
const log = process.argv[2];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
while (!(fs.existsSync(log) && /window of 30 s starts/.test(fs.readFileSync(log, 'utf8')))) await sleep(200);
const dir = fs.readdirSync('/tmp').filter((d) => d.startsWith('memeslam-bench-')).map((d) => '/tmp/' + d).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
const password = fs.readFileSync(dir + '/postgres-password', 'utf8').trim();
const sock = fs.readdirSync(dir + '/postgres', { recursive: true }).find((f) => String(f).endsWith('.s.PGSQL.5432'));
const host = (dir + '/postgres/' + sock).replace(/\/\.s\.PGSQL\.5432$/, '');
const c = new pg.Client({ host, port: 5432, user: 'postgres', password, database: 'memeslam', ssl: false });
await c.connect();
const stat = (pid) => { try { const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return [Number(st[11]), Number(st[12])]; } catch { return [0, 0]; } };
const pids = (await c.query(`select pid from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
const others = (await c.query(`select pid, backend_type from pg_stat_activity where backend_type <> 'client backend'`)).rows;
await c.query('create extension if not exists pg_stat_statements'); await c.query('select pg_stat_statements_reset()');
const before = new Map([...pids, ...others.map((o) => o.pid)].map((p) => [p, stat(p)]));
const counts = new Map();
const start = Date.now(); let samples = 0;
while (Date.now() - start < 25000) {
  const { rows } = await c.query(`select pid, state, coalesce(wait_event_type,'-') || ':' || coalesce(wait_event,'-') as w, left(regexp_replace(query,'\\s+',' ','g'), 40) as q from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid() and state = 'active'`);
  samples++;
  for (const r of rows) { const k = `${r.pid} ${r.w} ${r.q}`; counts.set(k, (counts.get(k) ?? 0) + 1); }
  await sleep(10);
}
console.log('samples', samples);
for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(v, k);
for (const [p, [u, s]] of before) { const [u2, s2] = stat(p); if (u2 + s2 - u - s > 10) console.log('pid', p, (others.find((o) => o.pid === p)?.backend_type ?? 'client'), 'user', ((u2 - u) / 25).toFixed(1) + '%', 'sys', ((s2 - s) / 25).toFixed(1) + '%'); }
const { rows: ss } = await c.query(`select calls, round(total_exec_time::numeric,1) as ms, round(mean_exec_time::numeric,3) as mean, rows, shared_blks_hit as hit, shared_blks_read as read, shared_blks_dirtied as dirtied, shared_blks_written as written, wal_bytes, wal_fpi, left(regexp_replace(query, '\\s+', ' ', 'g'), 50) as q from pg_stat_statements order by total_exec_time desc limit 5`);
console.table(ss);
await c.end();
