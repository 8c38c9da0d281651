import type { RequestHandler } from 'express';
import type { Logger } from '../log';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One audit log line for every change an admin makes (any non-read request by an admin):
 * who, what, and the answer's status. Bodies are not logged, so no secret can leak this way.
 */
export function auditAdminActions(log: Logger): RequestHandler {
  return (req, res, next) => {
    const actor = req.auth?.user;
    if (!actor || actor.role !== 'admin' || READ_ONLY.has(req.method)) return next();
    res.on('finish', () => {
      log.info(
        { audit: true, actor: { id: actor.id, email: actor.email }, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ip: req.ip },
        'admin action',
      );
    });
    next();
  };
}
