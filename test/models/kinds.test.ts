/** Wire kind ↔ module path: the events `kind` search filter needs the module path. */
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import {
  EVENT_KIND_MODULE_PATHS,
  EVENT_KINDS,
  eventKindToModulePath,
  modulePathToEventKind,
  NEWER_EVENT_KIND_MODULE_PATHS,
} from '../../src/models/index.js';
import { discriminatorMapping } from './support/openapi.js';

describe('eventKindToModulePath', () => {
  it('maps every known wire kind to the module path in the OpenAPI mapping key', () => {
    const keys = Object.keys(discriminatorMapping('Event'));
    for (const kind of EVENT_KINDS) {
      const path = eventKindToModulePath(kind);
      expect(path.endsWith(`.${kind}`)).toBe(true);
      expect(keys).toContain(`${path.replaceAll('.', '__')}-Output__1`);
    }
    expect(eventKindToModulePath('ActionEvent')).toBe(
      'openhands.sdk.event.llm_convertible.action.ActionEvent',
    );
  });

  it("knows the newer servers' kinds", () => {
    expect(eventKindToModulePath('HookExecutionEvent')).toBe(
      'openhands.sdk.event.hook_execution.HookExecutionEvent',
    );
    expect(eventKindToModulePath('InterruptEvent')).toBe('openhands.sdk.event.user_action.InterruptEvent');
    expect(Object.keys(NEWER_EVENT_KIND_MODULE_PATHS)).not.toContain('ActionEvent');
  });

  it('passes a full module path through unchanged', () => {
    const path = 'openhands.sdk.event.some_future_module.FutureEvent';
    expect(eventKindToModulePath(path)).toBe(path);
    expect(eventKindToModulePath(EVENT_KIND_MODULE_PATHS.TokenEvent)).toBe(
      EVENT_KIND_MODULE_PATHS.TokenEvent,
    );
  });

  it('rejects an unknown bare kind with a RequestValidationError naming `kind`', () => {
    let error: unknown;
    try {
      eventKindToModulePath('NoSuchEvent');
    } catch (e) {
      error = e;
    }
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as { issues: { path: string[] }[] }).issues[0]?.path).toEqual(['kind']);
  });

  it('modulePathToEventKind is the inverse, and falls back to the last segment', () => {
    for (const kind of EVENT_KINDS) expect(modulePathToEventKind(eventKindToModulePath(kind))).toBe(kind);
    expect(modulePathToEventKind('a.b.Custom')).toBe('Custom');
    expect(modulePathToEventKind('PauseEvent')).toBe('PauseEvent');
  });
});
