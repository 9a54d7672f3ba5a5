/**
 * The `semaphore_outputs` callback plugin: at the end of a play run it writes the aggregated
 * `set_stats` data (`per_host: false`, Ansible's `_run` stats) into SEMAPHORE_OUTPUTS_FILE,
 * merged over what the playbook wrote there itself (its own values win). Per-host stats are
 * not outputs.
 */
export const ANSIBLE_OUTPUTS_CALLBACK = `# -*- coding: utf-8 -*-
from __future__ import annotations
import json
import os
from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
    name: semaphore_outputs
    type: aggregate
    short_description: writes set_stats data to SEMAPHORE_OUTPUTS_FILE
    description:
      - Writes the aggregated custom stats of the run (set_stats with per_host false) as a JSON object.
'''


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'semaphore_outputs'
    CALLBACK_NEEDS_ENABLED = True

    def v2_playbook_on_stats(self, stats):
        path = os.environ.get('SEMAPHORE_OUTPUTS_FILE')
        data = (getattr(stats, 'custom', None) or {}).get('_run') or {}
        if not path or not data:
            return
        merged = dict(data)
        try:
            with open(path) as handle:
                text = handle.read()
            own = json.loads(text) if text.strip() else {}
            if not isinstance(own, dict):
                return
            merged.update(own)
        except (OSError, ValueError):
            return
        with open(path, 'w') as handle:
            json.dump(merged, handle, default=str)
`;
