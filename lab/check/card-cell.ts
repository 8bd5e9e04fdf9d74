// One cell of the report card: the value compared with the hand-written card, the text shown, its tone.
export type Tone = "safe" | "unsafe" | "n/a" | "unexpected";

export interface CellValue {
  /** compared with the expected card, type-aware */
  value: string | number;
  /** shown: the value, plus what varies from run to run (a time) */
  text: string;
  tone: Tone;
}
