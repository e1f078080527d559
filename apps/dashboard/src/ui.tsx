import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './api';
import { words as w } from './i18n';

/** A date as people here read it (day, month in words, year), in Ghana's time. */
export function day(value: string | Date | null | undefined): string {
  if (!value) return w.vehicle.none;
  return new Date(value).toLocaleDateString(w.locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Africa/Accra',
  });
}

export function dateTime(value: string | Date): string {
  return new Date(value).toLocaleString(w.locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Africa/Accra',
  });
}

/** The words of a refusal: the API's detail, and each field it names. */
export function ProblemMessage({ error }: { error: unknown }) {
  const problem = error instanceof ApiProblem ? error : undefined;
  const detail =
    problem === undefined
      ? error instanceof Error
        ? error.message
        : String(error)
      : problem.status === 0
        ? w.errors.network
        : (problem.problem.detail ?? (problem.status === 404 ? w.errors.notFound : w.errors.forbidden));
  const fields = problem?.problem.errors ?? [];
  // The domain names checklist items by their field names (spareTire); people read them in words (Spare tyre).
  const inWords = (text: string) => text.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (name) => w.checklist[name] ?? name);
  return (
    <div class="alert error" role="alert">
      <p class="alert-title">{w.errors.title}</p>
      <p>{inWords(detail)}</p>
      {fields.length > 0 && (
        <>
          <p>{w.errors.fields}</p>
          <ul>
            {fields.map((f) => (
              <li key={`${f.field}${f.message}`}>{inWords(f.message)}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function Done({ children }: { children: ComponentChildren }) {
  return (
    <p class="alert done" role="status">
      {children}
    </p>
  );
}

/**
 * What the last action on a screen did, kept under the screen's title: the form that did it may go away with the
 * change (an approved vehicle has no approval form), the words stay, scrolled into view.
 */
export function useNotice(): { notice: preact.JSX.Element | null; announce: (text: string) => void } {
  const [text, setText] = useState<{ words: string; at: number } | undefined>();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (text) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [text]);
  return {
    notice: (
      <div ref={ref} aria-live="polite">
        {text && <Done key={text.at}>{text.words}</Done>}
      </div>
    ),
    announce: (words: string) => setText({ words, at: Date.now() }),
  };
}

/**
 * One action's form: runs `action` on submit with the form's data, shows the API's refusal or the success words, and
 * keeps the button disabled while the request is in flight (no double submits).
 */
export function ActionForm(props: {
  label: string;
  help?: string;
  submit: string;
  done: string;
  action: (data: FormData) => Promise<void>;
  /** Where the success words go (the screen's notice); without it they show under the form. */
  announce?: (text: string) => void;
  children?: ComponentChildren;
  danger?: boolean;
}) {
  const [state, setState] = useState<{ busy?: boolean; error?: unknown; done?: boolean }>({});
  const id = props.label.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{props.label}</h2>
      {props.help && <p class="help">{props.help}</p>}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          setState({ busy: true });
          try {
            await props.action(new FormData(form));
            setState({ done: !props.announce });
            props.announce?.(props.done);
          } catch (error) {
            setState({ error });
          }
        }}
      >
        {props.children}
        <button type="submit" class={props.danger ? 'danger' : 'primary'} disabled={state.busy}>
          {props.submit}
        </button>
      </form>
      {state.error !== undefined && <ProblemMessage error={state.error} />}
      {state.done && <Done>{props.done}</Done>}
    </section>
  );
}

/** Loads data for a screen: the value, the refusal, and a way to load again after a change. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { value?: T; error?: unknown; reload: () => void } {
  const [state, setState] = useState<{ value?: T; error?: unknown }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setState({ value }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/** A screen's title: the page's h1, focused on arrival so keyboard and screen-reader users start there. */
export function Title({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
    if (typeof children === 'string') document.title = `${children} · ${w.appName}`;
  }, [children]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function Loading() {
  return (
    <p class="loading" role="status">
      {w.loading}
    </p>
  );
}
