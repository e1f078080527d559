/** Ghana DVLA licence classes (A motorcycles ... H construction). */
export const LICENSE_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
export const GENDERS = ['male', 'female', 'other', 'unspecified'] as const;

export type LicenseClass = (typeof LICENSE_CLASSES)[number];
export type Gender = (typeof GENDERS)[number];
