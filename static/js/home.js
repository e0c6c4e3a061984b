// The home page: the create-room form keeps its settings fields consistent.

import { bindSettings } from "./settings.js";
import { readJson } from "./dom.js";

const form = document.querySelector("[data-settings-form]");
if (form) bindSettings(form, readJson("presets"));
