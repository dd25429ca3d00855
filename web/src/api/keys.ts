// SWR cache keys. A key is the GET path itself so the shared fetcher needs no lookup table,
// and every screen that reads the same resource shares one cache entry.

export const keys = {
  health: () => '/api/health',
  me: () => '/api/app/me',
  setupStatus: () => '/api/setup/status',
  adminUsers: () => '/api/admin/users',
} as const;
