import { forbidden, HttpError } from '../platform/http/errors';

/*
 * The interface's odd statuses for the model endpoints (its refusal statuses, listed in
 * docs/api-notes.md). A model the caller may not
 * read answers exactly like a missing one, so private ids do not leak.
 */

/** GET /models/model, update, toggle, delete: missing or not readable → 401. */
export const modelNotFound = () => new HttpError(401, 'MODEL_NOT_FOUND', 'Model not found');
/** POST /models/create with a taken id → 401. */
export const modelIdTaken = () => new HttpError(401, 'MODEL_ID_TAKEN', 'A model with this id already exists');
/** POST /models/create without admin role or workspace.models → 403. */
export const modelsPermissionRequired = () =>
  forbidden('You need the workspace models permission to create models', 'MODELS_PERMISSION_REQUIRED');
/** A non-admin creating an entry that is, or overrides, a base model → 403 (insufficient permission). */
export const baseOverrideAdminOnly = () =>
  forbidden("Only administrators may create entries for base models: use another id and set 'base_model_id' to the model it runs on", 'BASE_MODEL_OVERRIDE_ADMIN_ONLY');
/**
 * A custom model on a base model its owner (or the person setting it) may not use: 403 on create
 * (insufficient permission), 400 on update (the interface's "access forbidden").
 */
export const baseModelNotAllowed = (status: 400 | 403, baseId: string, who: 'you' | 'owner') =>
  new HttpError(status, 'BASE_MODEL_NOT_ALLOWED', `${who === 'you' ? 'You may' : "The model's owner may"} not use base model '${baseId}'`);
/** Update of a readable model without write access → 400. */
export const modelUpdateForbidden = () => new HttpError(400, 'MODEL_ACCESS_FORBIDDEN', 'You do not have write access to this model');
/** Toggle or delete of a readable model without write access → 401. */
export const modelWriteUnauthorized = () => new HttpError(401, 'MODEL_ACCESS_FORBIDDEN', 'You do not have write access to this model');
/** Toggle that failed after the checks (the model vanished meanwhile) → 400. */
export const modelToggleFailed = () => new HttpError(400, 'MODEL_TOGGLE_FAILED', 'The model could not be toggled');

/**
 * Chat resolution: the model is missing, inactive, not usable by the caller, or no enabled
 * provider offers its base model. 404 by default; the chat endpoints may answer their own status
 * (match on `code === 'MODEL_NOT_FOUND'`). Nothing has been sent to any provider.
 */
export const modelUnavailable = (id: string) => new HttpError(404, 'MODEL_NOT_FOUND', `Model not found: ${id}`);
