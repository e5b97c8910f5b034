import { APP_CHOICES, type AppId } from './definitions.js';

/**
 * The networks with more than one kind of developer app (a definition's `appChoice`): a connect
 * may ask for a kind by its field, and the account read says which kind an account came through.
 * Everything here is generic: each network declares its kinds in its own definition.
 */
export type AppChoiceOf = (typeof APP_CHOICES)[number];

/** The kinds of app a choice offers (its `kinds`' names). */
export type AppKindOf<C> = C extends { kinds: infer K } ? keyof K & string : never;

/** A value naming kinds of app by their choice fields, each optional (a connect's body, an account read). */
export type AppKinds = { [C in AppChoiceOf as C['field']]?: AppKindOf<C> };

/** The choice of app of the platform, if it has one. */
export function appChoiceOf(platform: string): AppChoiceOf | undefined {
  return APP_CHOICES.find((choice) => choice.platform === platform);
}

/** The kinds of app of a choice, in their declared order (the default app's first). */
export function appKindsOf<C extends AppChoiceOf>(choice: C): [AppKindOf<C>, ...AppKindOf<C>[]] {
  // A definition declares at least the default app's kind; the keys are exactly `kinds`' names.
  return Object.keys(choice.kinds) as [AppKindOf<C>, ...AppKindOf<C>[]];
}

/** The app of a kind. */
export function appOfKind(choice: AppChoiceOf, kind: string): AppId | undefined {
  return Object.entries(choice.kinds).find(([name]) => name === kind)?.[1];
}

/**
 * The kind of app an account's tokens came from: the kind whose app it recorded. An account that
 * recorded none (connected before the network had a second app) came through the default app.
 */
export function kindOfApp<C extends AppChoiceOf>(choice: C, networkApp: string | undefined): AppKindOf<C> {
  const kinds = appKindsOf(choice);
  return kinds.find((kind) => appOfKind(choice, kind) === networkApp) ?? kinds[0];
}

/**
 * The app a connect asks for through a choice field (a connect request's `app`), or nothing when
 * it names no kind: the connect then takes the network's first app that has credentials.
 */
export function appAskedFor(asked: AppKinds): { app?: AppId } {
  for (const choice of APP_CHOICES) {
    const kind = asked[choice.field];
    const app = kind === undefined ? undefined : appOfKind(choice, kind);
    if (app !== undefined) return { app };
  }
  return {};
}
