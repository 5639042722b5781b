import React, { useState } from "react";

export type ReportSource = "web" | "local" | "hybrid";

interface ToggleProps {
  value: ReportSource;
  onChange: (source: ReportSource) => void;
}

interface FormProps {
  onSubmit: (task: string, source: ReportSource) => void;
}

/** The three places a report's sources may come from. */
export const SourceToggle = (props: ToggleProps) => {
  const choose = (event: React.ChangeEvent<HTMLSelectElement>) =>
    props.onChange(event.target.value as ReportSource);
  return (
    <select value={props.value} onChange={choose}>
      <option value="web">Web</option>
      <option value="local">My documents</option>
      <option value="hybrid">Hybrid</option>
    </select>
  );
};

export default function ResearchForm(props: FormProps) {
  const [task, setTask] = useState("");
  const [source, setSource] = useState<ReportSource>("web");
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (task.trim() === "") {
      return;
    }
    props.onSubmit(task, source);
  };
  return (
    <form onSubmit={submit}>
      <input value={task} onChange={(event) => setTask(event.target.value)} />
      <SourceToggle value={source} onChange={setSource} />
      <button type="submit">Research</button>
    </form>
  );
}
