// Synthetic TSX shaped like a terminal view: JSX text with symbols, type
// arguments inside JSX files, template literals in attributes.
import { createSignal, For } from "solid-js"

export function Footer(props: { items: string[]; theme: { warning: string } }) {
  const [open, setOpen] = createSignal<string | null>(null)
  const label = (s: string) => `▣ ${s.replace(/\n/g, "\\n")}\t·`
  return (
    <box flexDirection="row" title={`items: ${props.items.length}\n`}>
      <text fg={props.theme.warning}>△</text>
      <For each={props.items}>{(item) => <text onClick={() => setOpen(item)}>{label(item)} · done</text>}</For>
      <text>
        # Todos ┃ {open() ?? "none"}
      </text>
    </box>
  )
}
