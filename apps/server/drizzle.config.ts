import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` turns changes of src/db/schema.ts into the next numbered migration.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './migrations',
});
