import express, { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { listRoutes } from './route-table';

describe('listRoutes', () => {
  it('lists routes of the app and of mounted routers with their full paths', () => {
    const app = express();
    app.get('/health', (_req, res) => res.end());
    const users = Router();
    users.get('/', (_req, res) => res.end());
    users.post('/:id/update', (_req, res) => res.end());
    users.delete('/:id', (_req, res) => res.end());
    app.use('/api/v1/users', users);
    app.use('/auths', users);
    expect(listRoutes(app).map(({ method, path }) => ({ method, path }))).toEqual([
      { method: 'GET', path: '/health' },
      { method: 'GET', path: '/api/v1/users' },
      { method: 'POST', path: '/api/v1/users/:id/update' },
      { method: 'DELETE', path: '/api/v1/users/:id' },
      { method: 'GET', path: '/auths' },
      { method: 'POST', path: '/auths/:id/update' },
      { method: 'DELETE', path: '/auths/:id' },
    ]);
  });
});
