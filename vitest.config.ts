import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'engine', include: ['packages/engine/test/**/*.test.ts'] } },
      { test: { name: 'protocol', include: ['packages/protocol/test/**/*.test.ts'] } },
      { test: { name: 'server', include: ['apps/server/test/**/*.test.ts'] } },
      { test: { name: 'bench', include: ['bench/test/**/*.test.ts'] } },
    ],
  },
});
