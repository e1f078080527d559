// The words of a weak signal and of the roadside's warnings (issue 43), in English: part of `Words` (words.ts) as its
// `roadside` entry.

export const enRoadside = {
  sending: 'Sending…',
  slowChange: 'Still waiting for an answer: the connection is slow.',
  slowRead: 'Still loading: the connection is slow.',
  noAnswerTitle: 'No answer from the service',
  noAnswer: 'The service did not answer in time: the signal is weak or lost. Try again when it is better.',
  retry: 'Try again',
  /** Before saving a failure on an approved vehicle. */
  withdrawWarning: (plate: string) =>
    `${plate} is approved; recording a failure withdraws its approval and its sticker.`,
  /** After it was saved. */
  withdrawn: (plate: string, items: string) =>
    `The inspection is recorded: ${plate} failed on ${items}. Its approval and its sticker are withdrawn: a scan of the sticker now says “Withdrawn”. The owner is told by SMS when the assembly has verified the owner.`,
  /** Kept on the phone: withdrawn when it is sent. */
  withdrawnWhenSent: (plate: string) =>
    `When it is sent, the approval of ${plate} and its sticker are withdrawn (it failed).`,
  documentsEnded: (plate: string, documents: string) =>
    `The ${documents} of ${plate} ended: a sticker printed now shows it, and a passenger's scan of it says “Expired”. Record the renewal first.`,
  and: ' and the ',
  printAnyway: (plate: string, documents: string) => `The ${documents} of ${plate} ended. Print the sticker anyway?`,
  signInWith: (email: string) => `You sign in with ${email}.`,
};
