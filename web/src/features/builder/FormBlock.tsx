// Builder's form block ("Form:Form"), registered over the SDK's own: the same options, inputs and
// states (spec 001 §3 "Builder form block configuration", §4, §5, §8), but the submission goes to
// our server (POST /api/builder/form), which reads the block's settings from the entry it fetched
// and delivers it (Builder's form-submit, the user's mailbox, or the block's action URL). The
// browser never posts to another host, so the CSP stays `connect-src 'self'`.
//
// States: unsubmitted → sending → success | error. In the editor, `previewState` shows a state.
// Inputs marked required are checked by the browser first (unless `validate` is off). On error the
// error blocks show, with the message found at `errorMessagePath` in a JSON answer, and the raw
// answer. On success the form resets unless `resetFormOnSubmit` is false, and `successUrl` (if any)
// is opened after a cancelable `route` event. An unsupported content type is logged and nothing is
// sent (§5).

import { Component, type FormEvent } from 'react';
import {
  Builder,
  BuilderBlockComponent,
  BuilderBlocks,
  BuilderStoreContext,
  type BuilderElement,
} from '@builder.io/react';
import { submitBuilderForm, type BuilderFormField } from '../../api/builder';
import { errorMessage } from '../../api/client';
import { heBuilder } from '../../i18n/builder';
import { formContext } from './formContext';

export const JSON_CONTENT_TYPE = 'application/json';
export const ENCODED_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_CONTENT_TYPE = 'multipart/form-data';
const SUPPORTED = [JSON_CONTENT_TYPE, ENCODED_CONTENT_TYPE, MULTIPART_CONTENT_TYPE];

/** The SDK's own default error block text (spec 001 §8 "Builder form error"). */
export const DEFAULT_FORM_ERROR = 'Form submission error :( Please check your answers and try again';

export type FormState = 'unsubmitted' | 'sending' | 'success' | 'error';

export interface FormBlockProps {
  sendSubmissionsTo?: string;
  sendSubmissionsToEmail?: string;
  name?: string;
  action?: string;
  contentType?: string;
  method?: string;
  previewState?: FormState;
  successUrl?: string;
  resetFormOnSubmit?: boolean;
  validate?: boolean;
  errorMessagePath?: string;
  customHeaders?: Record<string, string>;
  successMessage?: BuilderElement[];
  errorMessage?: BuilderElement[];
  sendingMessage?: BuilderElement[];
  attributes?: Record<string, unknown>;
  builderBlock?: BuilderElement;
}


/** `a.b[0].c` in a parsed JSON answer (lodash `get`, as the SDK reads errorMessagePath). */
export function getPath(value: unknown, path: string): unknown {
  const parts = path.replace(/\[(\w+)\]/g, '.$1').split('.').filter(Boolean);
  let here: unknown = value;
  for (const p of parts) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[p];
  }
  return here;
}

/** The form's inputs as the SDK reads them: named, checked radios only, numbers as numbers. */
export function readFields(form: HTMLFormElement): BuilderFormField[] {
  const out: BuilderFormField[] = [];
  for (const el of Array.from(form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input,select,textarea'))) {
    if (!el.name) continue;
    if (el instanceof HTMLInputElement) {
      if (el.type === 'radio' && !el.checked) continue;
      if (el.type === 'file') continue; // files are not sent through the server
      if (el.type === 'checkbox') {
        out.push({ key: el.name, value: el.checked });
        continue;
      }
      if (el.type === 'number' || el.type === 'range') {
        const n = el.valueAsNumber;
        out.push({ key: el.name, value: Number.isNaN(n) ? null : n });
        continue;
      }
    }
    out.push({ key: el.name, value: el.value });
  }
  return out;
}

function safeUrl(url: string): string | null {
  try {
    const u = new URL(url, window.location.href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

interface State {
  state: FormState;
  responseData: unknown;
  formErrorMessage: string;
}

export class FormBlock extends Component<FormBlockProps, State> {
  state: State = { state: 'unsubmitted', responseData: null, formErrorMessage: '' };
  get submissionState(): FormState {
    return (Builder.isEditing && this.props.previewState) || this.state.state;
  }

  private onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const p = this.props;
    const custom = p.sendSubmissionsTo === 'custom';
    if (custom && !p.action) return;
    const contentType = custom ? (p.contentType || JSON_CONTENT_TYPE) : MULTIPART_CONTENT_TYPE;
    if (!SUPPORTED.includes(contentType)) {
      console.error('Unsupported content type: ', contentType);
      return;
    }
    const fields = readFields(form);
    const presubmit = new CustomEvent('presubmit', { detail: { body: fields }, cancelable: true });
    form.dispatchEvent(presubmit);
    if (presubmit.defaultPrevented) return;
    const blockId = p.builderBlock?.id;
    if (!blockId) return;
    this.setState({ state: 'sending', formErrorMessage: '', responseData: null });
    submitBuilderForm({ urlPath: formContext.urlPath, blockId, fields }).then(
      (answer) => {
        let body: unknown = answer.body;
        if (answer.contentType.includes(JSON_CONTENT_TYPE)) {
          try {
            body = JSON.parse(answer.body);
          } catch {
            /* shown as text */
          }
        }
        let formErrorMessage = '';
        if (!answer.ok && p.errorMessagePath) {
          const found = getPath(body, p.errorMessagePath);
          if (found !== undefined && found !== null && found !== '') {
            formErrorMessage = typeof found === 'string' ? found : JSON.stringify(found);
          }
        }
        this.setState({ state: answer.ok ? 'success' : 'error', responseData: body, formErrorMessage });
        if (!answer.ok) {
          formContext.onResult(false, formErrorMessage || heBuilder.formFailed);
          return;
        }
        formContext.onResult(true, heBuilder.formSent);
        const success = new CustomEvent('submit:success', { detail: { body }, cancelable: true });
        form.dispatchEvent(success);
        if (success.defaultPrevented) return;
        if (p.resetFormOnSubmit !== false) form.reset();
        const target = p.successUrl ? safeUrl(p.successUrl) : null;
        if (target) {
          const route = new CustomEvent('route', { detail: { url: target }, cancelable: true });
          form.dispatchEvent(route);
          if (!route.defaultPrevented) window.location.href = target;
        }
      },
      (e: unknown) => {
        const message = errorMessage(e);
        form.dispatchEvent(new CustomEvent('submit:error', { detail: { error: message } }));
        this.setState({ state: 'error', responseData: { message }, formErrorMessage: message });
        formContext.onResult(false, message);
      },
    );
  };

  render() {
    const p = this.props;
    const state = this.submissionState;
    return (
      <BuilderStoreContext.Consumer>
        {(store) => (
          <BuilderStoreContext.Provider
            value={{ ...store, state: { ...store.state, formErrorMessage: this.state.formErrorMessage } }}
          >
            <form
              {...(p.validate === false ? { noValidate: true } : {})}
              name={p.name}
              method="post"
              data-state={state}
              onSubmit={this.onSubmit}
              {...p.attributes}
            >
              {p.builderBlock?.children?.map((block) => (
                <BuilderBlockComponent key={block.id} block={block} />
              ))}
              {state === 'error' &&
                (p.errorMessage?.length ? (
                  <BuilderBlocks dataPath="errorMessage" blocks={p.errorMessage} />
                ) : (
                  <p className="builder-form-error">{DEFAULT_FORM_ERROR}</p>
                ))}
              {state === 'error' && this.state.formErrorMessage && (
                <p className="builder-form-error-message" role="alert" dir="auto">
                  {this.state.formErrorMessage}
                </p>
              )}
              {state === 'sending' &&
                (p.sendingMessage?.length ? (
                  <BuilderBlocks dataPath="sendingMessage" blocks={p.sendingMessage} />
                ) : (
                  <p className="builder-form-sending" role="status">
                    {heBuilder.formSending}
                  </p>
                ))}
              {state === 'error' && this.state.responseData !== null && (
                <pre className="builder-form-error-text" dir="ltr">
                  {JSON.stringify(this.state.responseData, null, 2)}
                </pre>
              )}
              {state === 'success' &&
                (p.successMessage?.length ? (
                  <BuilderBlocks dataPath="successMessage" blocks={p.successMessage} />
                ) : (
                  <p className="builder-form-success" role="status">
                    {heBuilder.formSent}
                  </p>
                ))}
            </form>
          </BuilderStoreContext.Provider>
        )}
      </BuilderStoreContext.Consumer>
    );
  }
}

/** Puts this block in place of the SDK's "Form:Form" (same name: the registry replaces it). */
export function registerFormBlock() {
  Builder.registerComponent(FormBlock, {
    name: 'Form:Form',
    canHaveChildren: true,
    inputs: [
      { name: 'sendSubmissionsTo', type: 'string', enum: ['email', 'custom'], defaultValue: 'email' },
      { name: 'sendSubmissionsToEmail', type: 'string' },
      { name: 'name', type: 'string', defaultValue: 'My form' },
      { name: 'action', type: 'string' },
      { name: 'contentType', type: 'string', defaultValue: JSON_CONTENT_TYPE, enum: SUPPORTED },
      { name: 'method', type: 'string', defaultValue: 'POST' },
      { name: 'previewState', type: 'string', enum: ['unsubmitted', 'sending', 'success', 'error'], defaultValue: 'unsubmitted' },
      { name: 'successUrl', type: 'url' },
      { name: 'resetFormOnSubmit', type: 'boolean' },
      { name: 'validate', type: 'boolean', defaultValue: true },
      { name: 'errorMessagePath', type: 'text' },
      { name: 'customHeaders', type: 'map' },
      { name: 'successMessage', type: 'uiBlocks', hideFromUI: true },
      { name: 'errorMessage', type: 'uiBlocks', hideFromUI: true },
      { name: 'sendingMessage', type: 'uiBlocks', hideFromUI: true },
    ],
  });
}
