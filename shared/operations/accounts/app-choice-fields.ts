import * as z from 'zod';
import { type AppChoiceOf, type AppKindOf, appKindsOf } from '../../networks/app-kinds.js';
import { APP_CHOICES } from '../../networks/definitions.js';

/**
 * The API's fields for the networks with more than one kind of app (a definition's `appChoice`):
 * one optional field each, named by the network (`linkedinApp`), on the connect body and the
 * account read alike.
 */
export type AppChoiceFields = {
  [C in AppChoiceOf as C['field']]: z.ZodOptional<z.ZodEnum<{ [K in AppKindOf<C>]: K }>>;
};

/** One optional enum of kinds per network with a choice of app, described for where it stands. */
export function appChoiceFields(describe: (choice: AppChoiceOf) => string): AppChoiceFields {
  // Object.fromEntries loses the field names' literal types that AppChoiceFields states.
  return Object.fromEntries(
    APP_CHOICES.map((choice) => [
      choice.field,
      z.enum(appKindsOf(choice)).optional().describe(describe(choice)),
    ]),
  ) as AppChoiceFields;
}

/** A kind of app asked for on another network than the field's: refused on that field. */
export function refuseChoicesOfOtherPlatforms(
  body: { platform: string } & { readonly [F in AppChoiceOf['field']]?: string },
  context: z.RefinementCtx,
): void {
  for (const choice of APP_CHOICES) {
    if (body[choice.field] !== undefined && body.platform !== choice.platform) {
      context.addIssue({
        code: 'custom',
        path: [choice.field],
        message: `Only for platform ${choice.platform}.`,
      });
    }
  }
}
